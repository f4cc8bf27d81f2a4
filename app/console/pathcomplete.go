package console

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Bounds of one completion: it reads one directory, never below it, and answers a short list.
const (
	maxCompletions    = 50
	maxScannedEntries = 20_000
)

// CompletePath completes a folder path from the host's file system: the folders (only folders) inside the
// typed path's parent whose names start with its last part. "~" is the home folder. Hidden folders are offered
// only once a "." is typed. It reads that one directory, never its subfolders.
func (a *API) CompletePath(p CompleteParams) (CompleteResult, error) {
	typed := strings.TrimSpace(p.Path)
	if typed == "" || typed == "~" {
		typed = "~" + string(filepath.Separator)
	}
	if typed == "~" || strings.HasPrefix(typed, "~/") || strings.HasPrefix(typed, "~"+string(filepath.Separator)) {
		home, err := os.UserHomeDir()
		if err != nil {
			return CompleteResult{}, &Error{Code: CodeUnavailable, Message: "Baton cannot tell where your home folder is; type the full path."}
		}
		typed = filepath.Join(home, typed[1:]) + trailingSep(typed)
	}
	if !filepath.IsAbs(typed) {
		return CompleteResult{}, badRequest("Type a full path, starting with %s or ~.", string(filepath.Separator))
	}
	dir, prefix := typed, ""
	if !strings.HasSuffix(typed, string(filepath.Separator)) && !strings.HasSuffix(typed, "/") {
		dir, prefix = filepath.Dir(typed), filepath.Base(typed)
	}
	dir = filepath.Clean(dir)
	entries, truncated, err := folderEntries(dir, prefix)
	if err != nil {
		return CompleteResult{}, err
	}
	return CompleteResult{Dir: dir, Entries: entries, Truncated: truncated}, nil
}

func trailingSep(s string) string {
	if strings.HasSuffix(s, "/") || strings.HasSuffix(s, string(filepath.Separator)) {
		return string(filepath.Separator)
	}
	return ""
}

// folderEntries reads dir in chunks, keeping the folders whose names start with prefix (ignoring case).
func folderEntries(dir, prefix string) ([]PathEntry, bool, error) {
	f, err := os.Open(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, notFound("There is no folder %s.", dir)
	case errors.Is(err, fs.ErrPermission):
		return nil, false, &Error{Code: CodeBadRequest, Message: "Baton may not read the folder " + dir + "."}
	case err != nil:
		return nil, false, &Error{Code: CodeBadRequest, Message: "Baton cannot read the folder " + dir + ": " + err.Error()}
	}
	defer f.Close()
	lower := strings.ToLower(prefix)
	hidden := strings.HasPrefix(prefix, ".")
	entries := []PathEntry{}
	scanned, truncated := 0, false
	for {
		batch, err := f.ReadDir(256)
		for _, e := range batch {
			scanned++
			name := e.Name()
			if !strings.HasPrefix(strings.ToLower(name), lower) || (!hidden && strings.HasPrefix(name, ".")) {
				continue
			}
			if !isFolder(dir, e) {
				continue
			}
			entries = append(entries, PathEntry{Name: name, Path: filepath.Join(dir, name)})
		}
		if errors.Is(err, io.EOF) || len(batch) == 0 {
			break
		}
		if err != nil {
			return nil, false, &Error{Code: CodeBadRequest, Message: "Baton cannot read the folder " + dir + ": " + err.Error()}
		}
		if scanned >= maxScannedEntries {
			truncated = true
			break
		}
	}
	sort.Slice(entries, func(i, j int) bool { return strings.ToLower(entries[i].Name) < strings.ToLower(entries[j].Name) })
	if len(entries) > maxCompletions {
		entries, truncated = entries[:maxCompletions], true
	}
	return entries, truncated, nil
}

// isFolder says whether e is a folder, or a link to one (the link is resolved, its target is not read).
func isFolder(dir string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && st.IsDir()
}
