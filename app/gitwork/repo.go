package gitwork

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Repo is a repository as its main checkout sees it.
type Repo struct {
	Root      string // the main checkout's folder (the first of `git worktree list`)
	CommonDir string // the shared .git folder (absolute)
}

// OpenRepo finds the repository dir is in (dir may be any folder of any of its checkouts).
func OpenRepo(ctx context.Context, dir string) (Repo, error) {
	top, err := toplevel(ctx, dir)
	if err != nil {
		return Repo{}, err
	}
	common, err := commonDirOf(ctx, top)
	if err != nil {
		return Repo{}, err
	}
	// Run in dir's own checkout: which one is the main checkout is what the listing says.
	out, err := worktreeLocked(ctx, Repo{Root: top, CommonDir: common}, "worktree", "list", "--porcelain")
	if err != nil {
		return Repo{}, err
	}
	first, _, _ := strings.Cut(string(out), "\n")
	root, ok := strings.CutPrefix(first, "worktree ")
	if !ok {
		return Repo{}, fmt.Errorf("read the worktrees of %s: git said %q", top, first)
	}
	return Repo{Root: filepath.Clean(root), CommonDir: common}, nil
}

// commonDirOf is the shared .git folder of the checkout dir is in (absolute).
func commonDirOf(ctx context.Context, dir string) (string, error) {
	common, err := gitAt(dir).line(ctx, "rev-parse", "--path-format=absolute", "--git-common-dir")
	return filepath.Clean(common), err
}

// toplevel is the root of the checkout dir is in; a folder outside any repository is ErrNotRepo.
func toplevel(ctx context.Context, dir string) (string, error) {
	top, err := gitAt(dir).line(ctx, "rev-parse", "--show-toplevel")
	var ge *GitError
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not a git repository") {
		return "", fmt.Errorf("%s is %w: run `git init` there, or pick a folder inside a repository", dir, ErrNotRepo)
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	if err == nil && top == "" {
		return "", fmt.Errorf("%s is inside a repository's .git folder, not a checkout: %w", dir, ErrNotRepo)
	}
	return filepath.Clean(top), err
}

// currentBranch is the branch checked out in dir ("" when HEAD is detached).
func currentBranch(ctx context.Context, dir string) (string, error) {
	g := gitAt(dir)
	detached, err := g.ok(ctx, "symbolic-ref", "--quiet", "HEAD")
	if err != nil || !detached {
		return "", err
	}
	return g.line(ctx, "symbolic-ref", "--short", "HEAD")
}

// branchExists says whether refs/heads/name exists.
func branchExists(ctx context.Context, g git, name string) (bool, error) {
	return g.ok(ctx, "show-ref", "--verify", "--quiet", "refs/heads/"+name)
}

// commitOf resolves ref to a commit id.
func commitOf(ctx context.Context, g git, ref string) (string, error) {
	id, err := g.line(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if exitCode(err) == 1 || (err == nil && id == "") {
		return "", fmt.Errorf("%q is not a branch or commit here (see `git branch -a`): %w", ref, ErrUnknownRef)
	}
	if err != nil {
		return "", err
	}
	return id, nil
}

// ErrUnknownRef says a branch or commit named by the caller does not exist.
var ErrUnknownRef = errors.New("unknown branch or commit")

func errOr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
