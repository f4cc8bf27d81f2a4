package gitwork

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Target is a folder whose changes are shown and the base they are measured against.
type Target struct {
	Dir  string // a worktree, or any folder of a checkout
	Base string // a branch or commit; the changes start at its merge-base with HEAD ("" : HEAD itself)
}

// Status is how a file changed.
type Status string

// The statuses a change can have.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
)

// FileChange is one changed file, paths relative to the checkout's root.
type FileChange struct {
	Path    string `json:"path"`
	OldPath string `json:"oldPath,omitempty"` // a rename's old path
	Status  Status `json:"status"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
	Binary  bool   `json:"binary,omitempty"` // no line counts
}

// emptyTree is git's empty tree: the base of a repository without a commit.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Changes lists the files that differ between the base and the folder as it is now: commits since the base,
// staged and unstaged edits, and untracked files (not ignored ones).
func Changes(ctx context.Context, t Target) ([]FileChange, error) {
	v, cleanup, err := open(ctx, t)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	common := []string{"diff", "-z", "-M", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules=dirty"}
	statuses, err := v.g.run(ctx, append(common, "--name-status", v.base)...)
	if err != nil {
		return nil, fmt.Errorf("list the changes in %s: %w", v.root, err)
	}
	counts, err := v.g.run(ctx, append(common, "--numstat", v.base)...)
	if err != nil {
		return nil, fmt.Errorf("count the changes in %s: %w", v.root, err)
	}
	list := parseNameStatus(splitZ(statuses))
	byPath := make(map[string]*FileChange, len(list))
	for i := range list {
		byPath[list[i].Path] = &list[i]
	}
	for _, n := range parseNumstat(splitZ(counts)) {
		if c := byPath[n.Path]; c != nil {
			c.Added, c.Deleted, c.Binary = n.Added, n.Deleted, n.Binary
		}
	}
	return list, nil
}

// view is a target resolved: git at the checkout's root (with a scratch index that also holds the untracked
// files as intent-to-add, so git diff sees them as added and pairs renames) and the base commit.
type view struct {
	g    git
	root string
	base string
}

func open(ctx context.Context, t Target) (view, func(), error) {
	root, err := toplevel(ctx, t.Dir)
	if err != nil {
		return view{}, nil, err
	}
	g := gitAt(root)
	base, err := baseCommit(ctx, g, t.Base)
	if err != nil {
		return view{}, nil, err
	}
	scratch, cleanup, err := scratchIndex(ctx, g)
	if err != nil {
		return view{}, nil, err
	}
	return view{g: scratch, root: root, base: base}, cleanup, nil
}

// baseCommit is where a target's changes start.
func baseCommit(ctx context.Context, g git, base string) (string, error) {
	head, herr := commitOf(ctx, g, "HEAD")
	if base == "" || base == "HEAD" {
		if herr != nil {
			return emptyTree, nil // no commit yet: everything is added
		}
		return head, nil
	}
	if _, err := commitOf(ctx, g, base); err != nil {
		return "", fmt.Errorf("the session's base: %w", err)
	}
	if herr != nil {
		return "", herr
	}
	mb, err := g.line(ctx, "merge-base", base, head)
	if err != nil {
		return "", fmt.Errorf("%s and HEAD share no history (git merge-base): %w", base, err)
	}
	return mb, nil
}

// scratchIndex copies the checkout's index to a temporary file and adds the untracked files to it as
// intent-to-add. The checkout's own index is never written: a session's staging stays its own.
func scratchIndex(ctx context.Context, g git) (git, func(), error) {
	tmp, err := os.MkdirTemp("", "baton-index-")
	if err != nil {
		return g, nil, fmt.Errorf("make a scratch git index: %w", err)
	}
	cleanup := func() { _ = os.RemoveAll(tmp) }
	index, err := g.line(ctx, "rev-parse", "--path-format=absolute", "--git-path", "index")
	if err != nil {
		cleanup()
		return g, nil, err
	}
	scratchPath := filepath.Join(tmp, "index")
	if err := copyFile(index, scratchPath); err != nil && !os.IsNotExist(err) {
		cleanup()
		return g, nil, fmt.Errorf("copy the git index: %w", err)
	}
	s := g.with("GIT_INDEX_FILE=" + scratchPath)
	untracked, err := s.run(ctx, "ls-files", "-z", "--others", "--exclude-standard")
	if err == nil && len(untracked) > 0 {
		_, err = s.input(ctx, strings.NewReader(string(untracked)), "add", "--intent-to-add", "--pathspec-from-file=-", "--pathspec-file-nul")
	}
	if err != nil {
		cleanup()
		return g, nil, fmt.Errorf("list the untracked files: %w", err)
	}
	return s, cleanup, nil
}

// parseNameStatus reads `git diff --name-status -z`: a status letter (R and C with a score) then one path, or
// two for renames and copies.
func parseNameStatus(f []string) []FileChange {
	var out []FileChange
	for i := 0; i < len(f); i++ {
		code := f[i]
		if code == "" || i+1 >= len(f) {
			continue
		}
		c := FileChange{Path: f[i+1]}
		i++
		switch code[0] {
		case 'A':
			c.Status = Added
		case 'D':
			c.Status = Deleted
		case 'R':
			c.Status = Renamed
			if i+1 < len(f) {
				c.OldPath, c.Path = c.Path, f[i+1]
				i++
			}
		case 'C':
			c.Status = Added // a copy is a new file
			if i+1 < len(f) {
				c.Path = f[i+1]
				i++
			}
		default: // M, T (type change), U
			c.Status = Modified
		}
		out = append(out, c)
	}
	return out
}

// parseNumstat reads `git diff --numstat -z`: "added\tdeleted\tpath", or for a rename "added\tdeleted\t"
// followed by the old and new paths as fields of their own; "-" counts mean binary.
func parseNumstat(f []string) []FileChange {
	var out []FileChange
	for i := 0; i < len(f); i++ {
		parts := strings.SplitN(f[i], "\t", 3)
		if len(parts) != 3 {
			continue
		}
		c := FileChange{Path: parts[2], Binary: parts[0] == "-"}
		c.Added, _ = strconv.Atoi(parts[0])
		c.Deleted, _ = strconv.Atoi(parts[1])
		if parts[2] == "" && i+2 < len(f) {
			c.OldPath, c.Path = f[i+1], f[i+2]
			i += 2
		}
		out = append(out, c)
	}
	return out
}
