package gitwork

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Commit is one commit, by id and subject.
type Commit struct {
	Hash    string `json:"hash"`
	Subject string `json:"subject"`
}

// WouldLoseError refuses to archive a worktree whose work is not safe elsewhere.
type WouldLoseError struct {
	Worktree    string   `json:"worktree"`
	Base        string   `json:"base"`
	Uncommitted []string `json:"uncommitted,omitempty"` // changed or untracked files
	Unlanded    []Commit `json:"unlanded,omitempty"`    // commits of the branch its base lacks (branch deletion only)
}

func (e *WouldLoseError) Error() string {
	var parts []string
	if n := len(e.Uncommitted); n > 0 {
		parts = append(parts, fmt.Sprintf("%d uncommitted file(s) (%s)", n, listSome(e.Uncommitted)))
	}
	if n := len(e.Unlanded); n > 0 {
		parts = append(parts, fmt.Sprintf("%d commit(s) not in %s", n, e.Base))
	}
	return fmt.Sprintf("archiving %s would lose %s: land or commit them first, or force it", e.Worktree, strings.Join(parts, " and "))
}

// ArchiveOptions say what archiving removes.
type ArchiveOptions struct {
	DeleteBranch bool // delete the session's branch too
	Force        bool // even when work would be lost
}

// Archived is what an archive removed.
type Archived struct {
	Removed       bool `json:"removed"`       // the worktree's folder was removed
	AlreadyGone   bool `json:"alreadyGone"`   // its folder was deleted by hand; git's record was pruned
	BranchDeleted bool `json:"branchDeleted"` // the branch was deleted
}

// Archive removes the session's worktree (and with DeleteBranch its branch). Without Force it refuses with a
// *WouldLoseError when uncommitted files would go, or, when the branch goes too, commits its base lacks.
func Archive(ctx context.Context, wt Worktree, o ArchiveOptions) (Archived, error) {
	var res Archived
	main := gitAt(wt.Repo)
	_, statErr := os.Stat(wt.Path)
	res.AlreadyGone = errors.Is(statErr, os.ErrNotExist)
	if !o.Force {
		if err := checkLoss(ctx, wt, o, res.AlreadyGone); err != nil {
			return res, err
		}
	}
	if res.AlreadyGone {
		if _, err := worktreeLockedAt(ctx, wt.Repo, "worktree", "prune"); err != nil {
			return res, err
		}
	} else {
		args := []string{"worktree", "remove", wt.Path}
		if o.Force {
			args = []string{"worktree", "remove", "--force", "--force", wt.Path} // twice: a locked one too
		}
		if _, err := worktreeLockedAt(ctx, wt.Repo, args...); err != nil {
			return res, fmt.Errorf("remove the worktree %s: %w", wt.Path, err)
		}
		res.Removed = true
	}
	if o.DeleteBranch {
		if exists, _ := branchExists(ctx, main, wt.Branch); exists {
			if _, err := main.run(ctx, "branch", "-D", wt.Branch); err != nil {
				return res, fmt.Errorf("delete the branch %s: %w", wt.Branch, err)
			}
			res.BranchDeleted = true
		}
	}
	return res, nil
}

// Discard throws the session's work away: its worktree and its branch.
func Discard(ctx context.Context, wt Worktree) (Archived, error) {
	return Archive(ctx, wt, ArchiveOptions{DeleteBranch: true, Force: true})
}

func checkLoss(ctx context.Context, wt Worktree, o ArchiveOptions, gone bool) error {
	loss := &WouldLoseError{Worktree: wt.Path, Base: wt.Base}
	if !gone {
		pending, err := status(ctx, gitAt(wt.Path), true)
		if err != nil {
			return err
		}
		loss.Uncommitted = paths(pending)
	}
	if o.DeleteBranch {
		var err error
		if loss.Unlanded, err = unlanded(ctx, gitAt(wt.Repo), wt); err != nil {
			return err
		}
	}
	if len(loss.Uncommitted) > 0 || len(loss.Unlanded) > 0 {
		return loss
	}
	return nil
}

// unlanded lists the branch's commits its base lacks (none when the branch is gone).
func unlanded(ctx context.Context, g git, wt Worktree) ([]Commit, error) {
	if exists, err := branchExists(ctx, g, wt.Branch); err != nil || !exists {
		return nil, err
	}
	out, err := g.run(ctx, "log", "--format=%H%x1f%s", "refs/heads/"+wt.Branch, "--not", wt.Base, "--")
	if err != nil {
		return nil, fmt.Errorf("compare %s with %s: %w", wt.Branch, wt.Base, err)
	}
	var commits []Commit
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if hash, subject, ok := strings.Cut(l, "\x1f"); ok {
			commits = append(commits, Commit{Hash: hash, Subject: subject})
		}
	}
	return commits, nil
}

// Prune forgets the worktrees of dir's repository whose folders were deleted by hand and returns their paths.
func Prune(ctx context.Context, dir string) ([]string, error) {
	repo, err := OpenRepo(ctx, dir)
	if err != nil {
		return nil, err
	}
	out, err := worktreeLocked(ctx, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var stale []string
	for _, block := range strings.Split(string(out), "\n\n") {
		var path string
		prunable := false
		for _, l := range strings.Split(block, "\n") {
			if p, ok := strings.CutPrefix(l, "worktree "); ok {
				path = filepath.Clean(p)
			}
			prunable = prunable || strings.HasPrefix(l, "prunable")
		}
		if prunable && path != "" {
			stale = append(stale, path)
		}
	}
	if len(stale) == 0 {
		return nil, nil
	}
	if _, err := worktreeLocked(ctx, repo, "worktree", "prune"); err != nil {
		return nil, err
	}
	return stale, nil
}
