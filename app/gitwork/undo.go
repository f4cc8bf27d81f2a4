package gitwork

import (
	"context"
	"errors"
	"fmt"
)

// Undo takes back a worktree Create made for a session that then failed to start: the worktree's folder, git's
// record of it and, when Create made it, its branch (which holds no work yet), so nothing is left half-made.
// An existing branch that was only checked out stays.
func Undo(ctx context.Context, c Created) error {
	main := gitAt(c.Repo)
	var errs []error
	if _, err := worktreeLockedAt(ctx, c.Repo, "worktree", "remove", "--force", "--force", c.Path); err != nil {
		// The folder may be gone already (or never finished): forget git's record of it all the same.
		if _, perr := worktreeLockedAt(ctx, c.Repo, "worktree", "prune"); perr != nil {
			errs = append(errs, fmt.Errorf("remove the worktree %s: %w", c.Path, err))
		}
	}
	if c.NewBranch {
		if exists, _ := branchExists(ctx, main, c.Branch); exists {
			if _, err := main.run(ctx, "branch", "-D", c.Branch); err != nil {
				errs = append(errs, fmt.Errorf("delete the branch %s: %w", c.Branch, err))
			}
		}
	}
	return errors.Join(errs...)
}
