package gitwork

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/baton-console/baton/app/internal/filelock"
)

// Worktree is a session's own checkout.
type Worktree struct {
	Repo   string `json:"repo"`   // the main checkout's folder
	Path   string `json:"path"`   // the worktree's folder
	Branch string `json:"branch"` // checked out in it
	Base   string `json:"base"`   // the branch (or commit) it started from and lands into
}

// Target is what its changes are measured in and against.
func (w Worktree) Target() Target { return Target{Dir: w.Path, Base: w.Base} }

// CreateOptions say how to make a session's worktree; the zero value takes the repository's settings.
type CreateOptions struct {
	Prompt string // the session's first prompt; names the worktree when Name is empty
	Name   string // the worktree's folder name
	// Branch is an existing branch to check out, or the new branch's name (default: the prefix and the name).
	Branch string
	// Base is what a new branch starts from and what the session lands into (default: the branch checked out
	// in the folder given, else its HEAD commit).
	Base string
	// Dir is the folder worktrees go in (default: the settings', relative to the main checkout).
	Dir string
	// Setup runs in the new worktree (default: the settings'; "-" for none).
	Setup string
	// Output receives the setup command's output as it comes.
	Output func([]byte)
	// BranchPrefix starts a branch named from the prompt where the repository sets no baton.branchPrefix (nil:
	// DefaultBranchPrefix; "" is no prefix). CheckBranchPrefix says whether one can start a branch name.
	BranchPrefix *string
}

// Created is a new worktree and what went into it.
type Created struct {
	Worktree
	// Cwd is the folder in the worktree that matches the one given (a monorepo's subfolder), else Path.
	Cwd       string
	NewBranch bool     // the branch was made for it (false: an existing branch was checked out)
	Copied    []string // files copied in from the main checkout (IncludeFile)
}

// Create makes a worktree for a session of the repository dir is in.
func Create(ctx context.Context, dir string, o CreateOptions) (Created, error) {
	repo, err := OpenRepo(ctx, dir)
	if err != nil {
		return Created{}, err
	}
	prefix := DefaultBranchPrefix
	if o.BranchPrefix != nil {
		prefix = *o.BranchPrefix
	}
	settings, err := LoadSettings(ctx, repo, prefix)
	if err != nil {
		return Created{}, fmt.Errorf("read the repository's baton.* settings: %w", err)
	}
	src, err := toplevel(ctx, dir)
	if err != nil {
		return Created{}, err
	}
	c, err := add(ctx, repo, src, settings, o)
	if err != nil {
		return Created{}, err
	}
	c.Cwd = c.Path
	if abs, err := filepath.EvalSymlinks(dir); err == nil {
		if rel, err := filepath.Rel(src, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			if fi, err := os.Stat(filepath.Join(c.Path, rel)); err == nil && fi.IsDir() {
				c.Cwd = filepath.Join(c.Path, rel)
			}
		}
	}
	if c.Copied, err = copyIncludes(ctx, src, c.Path); err != nil {
		return Created{}, undone(ctx, c, err)
	}
	setup := o.Setup
	if setup == "" {
		setup = settings.Setup
	}
	if setup != "" && setup != "-" {
		if err := runSetup(ctx, c.Path, setup, o.Output); err != nil {
			return Created{}, undone(ctx, c, err)
		}
	}
	return c, nil
}

// undone takes back a worktree whose making failed half-way (Undo) and says so with the failure.
func undone(ctx context.Context, c Created, err error) error {
	if uerr := Undo(context.WithoutCancel(ctx), c); uerr != nil {
		return fmt.Errorf("%w (and the half-made worktree could not be removed: %w)", err, uerr)
	}
	return fmt.Errorf("%w; the half-made worktree %s was removed", err, c.Path)
}

// maxNameTries bounds the retries when another session takes the same name at the same moment.
const maxNameTries = 20

// add plans the worktree and has git make it; a name taken meanwhile (two sessions started at once with the same
// prompt) is planned again, unless the person chose it.
func add(ctx context.Context, repo Repo, src string, s Settings, o CreateOptions) (Created, error) {
	for try := 1; ; try++ {
		c, err := plan(ctx, repo, src, s, o)
		if err != nil {
			return c, err
		}
		if err := excludeWorktrees(repo, filepath.Dir(c.Path)); err != nil {
			return c, err
		}
		args := []string{"worktree", "add", "--quiet"}
		if c.NewBranch {
			args = append(args, "--no-track", "-b", c.Branch, c.Path, c.Base)
		} else {
			args = append(args, c.Path, c.Branch)
		}
		_, err = worktreeLocked(ctx, repo, args...)
		var ge *GitError
		taken := errors.As(err, &ge) && strings.Contains(ge.Stderr, "already exists")
		if taken && o.Branch == "" && o.Name == "" && try < maxNameTries {
			continue
		}
		if err != nil {
			return c, fmt.Errorf("create the worktree %s: %w", c.Path, err)
		}
		return c, nil
	}
}

// worktreeLocked runs a `git worktree` command in repo.Root holding a lock in the repository's git folder: git
// writes and removes a worktree's entry under .git/worktrees in steps, and another `worktree add` or `worktree
// list` reading it half-made fails ("failed to read …/commondir"), as two `baton exec --worktree` did in CI.
func worktreeLocked(ctx context.Context, repo Repo, args ...string) ([]byte, error) {
	unlock, err := filelock.Lock(filepath.Join(repo.CommonDir, "baton-worktree-add.lock"))
	if err != nil {
		return nil, fmt.Errorf("wait for another worktree being made in %s: %w", repo.Root, err)
	}
	defer unlock()
	return gitAt(repo.Root).run(ctx, args...)
}

// worktreeLockedAt is worktreeLocked for a repository known by its main checkout's folder only.
func worktreeLockedAt(ctx context.Context, root string, args ...string) ([]byte, error) {
	common, err := commonDirOf(ctx, root)
	if err != nil {
		return nil, err
	}
	return worktreeLocked(ctx, Repo{Root: root, CommonDir: common}, args...)
}

// plan picks the worktree's base, branch, name and folder.
func plan(ctx context.Context, repo Repo, src string, s Settings, o CreateOptions) (Created, error) {
	g := gitAt(repo.Root)
	c := Created{Worktree: Worktree{Repo: repo.Root, Base: o.Base}}
	if c.Base == "" {
		branch, err := currentBranch(ctx, src)
		if err != nil {
			return c, err
		}
		c.Base = branch
		if branch == "" {
			if c.Base, err = commitOf(ctx, g, "HEAD"); err != nil {
				return c, fmt.Errorf("the repository has no commit to start a worktree from; commit something first: %w", err)
			}
		}
	} else if _, err := commitOf(ctx, g, c.Base); err != nil {
		return c, fmt.Errorf("--base: %w", err)
	}
	root := o.Dir
	if root == "" {
		root = s.Dir
	}
	if !filepath.IsAbs(root) {
		root = filepath.Join(repo.Root, root)
	}
	name := o.Name
	if name == "" && o.Branch != "" {
		name = Slug(o.Branch)
	} else if name == "" {
		name = Slug(o.Prompt)
	}
	if o.Branch != "" {
		exists, err := branchExists(ctx, g, o.Branch)
		if err != nil {
			return c, err
		}
		c.Branch, c.NewBranch = o.Branch, !exists
		if ok, _ := g.ok(ctx, "check-ref-format", "--branch", o.Branch); !ok {
			return c, fmt.Errorf("%q cannot be a branch name (see `git check-ref-format --help`)", o.Branch)
		}
	}
	for i := 1; ; i++ {
		n := name
		if i > 1 {
			n = name + "-" + strconv.Itoa(i)
		}
		c.Path = filepath.Join(root, n)
		if _, err := os.Lstat(c.Path); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		if o.Branch != "" {
			return c, nil
		}
		exists, err := branchExists(ctx, g, s.BranchPrefix+n)
		if err != nil {
			return c, err
		}
		if !exists {
			c.Branch, c.NewBranch = s.BranchPrefix+n, true
			return c, nil
		}
	}
}

// excludeWorktrees keeps worktrees made inside the main checkout out of its `git status` (and so out of its
// changes and its "dirty" check) with a line in the repository's own info/exclude, never in a tracked file.
func excludeWorktrees(repo Repo, root string) error {
	rel, err := filepath.Rel(repo.Root, root)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return nil // outside the checkout: nothing shows
	}
	line := "/" + filepath.ToSlash(rel) + "/"
	path := filepath.Join(repo.CommonDir, "info", "exclude")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == line {
			return nil
		}
	}
	if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
		line = "\n" + line
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("keep the worktrees out of git status: %w", err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("keep the worktrees out of git status: %w", err)
	}
	_, err = f.WriteString(line + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("keep the worktrees out of git status (%s): %w", path, err)
	}
	return nil
}
