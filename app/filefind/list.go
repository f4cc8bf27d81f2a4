// Package filefind lists a folder's files and folders for the composer's @-mentions and ranks them against what
// the person typed. In a git work tree the listing is git's own (tracked and untracked files, .gitignore
// respected); elsewhere it is a bounded walk. Listings are cached per folder (index.go).
package filefind

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	// Partial says the listing is still being made: these are the entries so far, not sorted.
	Partial bool
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
	return listInto(ctx, root, newBuilder())
}

// listInto lists root into b, which answers from what it has meanwhile, and returns the whole listing.
func listInto(ctx context.Context, root string, b *builder) (Listing, error) {
	info, err := os.Stat(root)
	if err != nil {
		return Listing{}, fmt.Errorf("read the session's folder %s: %w", root, err)
	}
	if !info.IsDir() {
		return Listing{}, fmt.Errorf("the session's folder %s is not a folder", root)
	}
	if gitInto(ctx, root, b) {
		l := b.finish()
		l.Git = true
		return l, nil
	}
	b.reset() // whatever one git printed before the other failed
	files, truncated := walk(root)
	b.add(files)
	l := b.finish()
	l.Truncated = l.Truncated || truncated
	return l, nil
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
