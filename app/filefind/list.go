// Package filefind lists a folder's files and folders for the composer's @-mentions and ranks them against what
// the person typed. In a git work tree the listing is git's own (tracked and untracked files, .gitignore
// respected); elsewhere it is a bounded walk. Listings are cached per folder (index.go).
package filefind

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// MaxEntries bounds one listing (files and folders); a larger tree is cut and marked truncated.
const MaxEntries = 400_000

// Listing is one folder's files and folders, paths relative to it with "/" separators.
type Listing struct {
	Entries   []Entry
	Truncated bool
	// Git says whether git listed it (so .gitignore was respected).
	Git bool
}

// Entry is one file or folder of a listing, prepared for ranking.
type Entry struct {
	Path  string
	Dir   bool
	lower string // Path in lower case
	base  int    // where the last path segment starts in Path
	depth int    // number of "/" in Path
	// starts has bit startBit(c) set for each letter or digit c that begins a segment (a word of the path), so
	// ranking skips looking ahead for a segment start that is not there.
	starts uint64
}

// List lists root: git's view of it when root is inside a git work tree, else a bounded walk.
func List(ctx context.Context, root string) (Listing, error) {
	info, err := os.Stat(root)
	if err != nil {
		return Listing{}, fmt.Errorf("read the session's folder %s: %w", root, err)
	}
	if !info.IsDir() {
		return Listing{}, fmt.Errorf("the session's folder %s is not a folder", root)
	}
	if files, ok := gitFiles(ctx, root); ok {
		l := fromFiles(files)
		l.Git = true
		return l, nil
	}
	files, truncated := walk(root)
	l := fromFiles(files)
	l.Truncated = l.Truncated || truncated
	return l, nil
}

// gitFiles runs `git ls-files` (tracked and untracked, ignored left out) in root; ok is false outside a work tree
// or where git cannot run.
func gitFiles(ctx context.Context, root string) ([]string, bool) {
	git, err := exec.LookPath("git")
	if err != nil {
		return nil, false
	}
	cmd := exec.CommandContext(ctx, git, "-c", "core.quotePath=false", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		return nil, false
	}
	raw := out.String()
	if raw == "" {
		return nil, true
	}
	return strings.Split(strings.TrimSuffix(raw, "\x00"), "\x00"), true
}

// skippedDirs are never walked outside git: dependency and build trees nobody mentions by hand.
var skippedDirs = map[string]bool{"node_modules": true, ".git": true, "__pycache__": true, ".venv": true, "target": true}

// walk lists root's files below it, skipping hidden and dependency folders, at most MaxEntries.
func walk(root string) ([]string, bool) {
	var files []string
	truncated := false
	stop := errors.New("enough")
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: left out
		}
		if path == root {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if skippedDirs[name] || strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if len(files) >= MaxEntries {
			truncated = true
			return stop
		}
		if rel, err := filepath.Rel(root, path); err == nil {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	return files, truncated
}

// fromFiles builds the listing's entries: the files and every folder above them, shallow ones first.
func fromFiles(files []string) Listing {
	seen := make(map[string]bool)
	entries := make([]Entry, 0, len(files)+len(files)/8)
	truncated := false
	for _, f := range files {
		if f == "" || seen[f] { // a conflicted file is listed once per stage
			continue
		}
		seen[f] = true
		for i := strings.LastIndexByte(f, '/'); i > 0; i = strings.LastIndexByte(f[:i], '/') {
			dir := f[:i]
			if seen[dir] {
				break
			}
			seen[dir] = true
			entries = append(entries, newEntry(dir, true))
		}
		entries = append(entries, newEntry(f, false))
	}
	if len(entries) > MaxEntries {
		entries, truncated = entries[:MaxEntries], true
	}
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].depth != entries[j].depth {
			return entries[i].depth < entries[j].depth
		}
		return entries[i].Path < entries[j].Path
	})
	return Listing{Entries: entries, Truncated: truncated}
}

func newEntry(path string, dir bool) Entry {
	lower := strings.ToLower(path)
	var starts uint64
	for i := 0; i < len(lower); i++ {
		if i == 0 || isSeparator(lower[i-1]) {
			starts |= startBit(lower[i])
		}
	}
	return Entry{Path: path, Dir: dir, lower: lower, base: strings.LastIndexByte(path, '/') + 1,
		depth: strings.Count(path, "/"), starts: starts}
}

// startBit is c's bit in Entry.starts: one each for a–z and 0–9, one shared by every other byte.
func startBit(c byte) uint64 {
	switch {
	case c >= 'a' && c <= 'z':
		return 1 << (c - 'a')
	case c >= '0' && c <= '9':
		return 1 << (26 + c - '0')
	default:
		return 1 << 36
	}
}
