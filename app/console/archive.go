package console

import (
	"errors"
	"path/filepath"

	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/sessionmeta"
)

// ArchiveWorktree removes a session's worktree (and with DeleteBranch its branch). Without Force it removes
// nothing that holds work not safe elsewhere: the result lists the uncommitted files and unlanded commits instead,
// for the person to confirm losing.
func (a *API) ArchiveWorktree(p ArchiveParams) (ArchiveResult, error) {
	res := ArchiveResult{Uncommitted: []string{}, Unlanded: []Commit{}}
	wt, err := a.worktreeSession(p.Session)
	if err != nil {
		return res, err
	}
	c, cancel := ctx()
	defer cancel()
	done, err := gitwork.Archive(c, wt, gitwork.ArchiveOptions{DeleteBranch: p.DeleteBranch != nil && *p.DeleteBranch,
		Force: p.Force != nil && *p.Force})
	var lose *gitwork.WouldLoseError
	if errors.As(err, &lose) {
		res.Message = lose.Error()
		res.Uncommitted = append(res.Uncommitted, lose.Uncommitted...)
		for _, u := range lose.Unlanded {
			res.Unlanded = append(res.Unlanded, Commit{Hash: u.Hash, Subject: u.Subject})
		}
		return res, nil
	}
	if err != nil {
		return res, gitProblem(err)
	}
	res.Archived, res.Removed, res.AlreadyGone, res.BranchDeleted = true, done.Removed, done.AlreadyGone, done.BranchDeleted
	res.Message = "Removed the worktree " + wt.Path + "."
	if done.AlreadyGone {
		res.Message = "The worktree " + wt.Path + " was already deleted; git's record of it is pruned."
	}
	if done.BranchDeleted {
		res.Message += " Deleted the branch " + wt.Branch + "."
	}
	// The session's folder is gone: forget the worktree, so its changes and lands are not offered again.
	if _, err := a.opts.Meta.Update(p.Session, func(m *sessionmeta.Meta) { m.Worktree = sessionmeta.Worktree{} }); err != nil {
		a.opts.Logger.Warn().Err(err).Str("session", p.Session).Msg("could not forget the archived worktree")
	}
	return res, nil
}

// PruneWorktrees forgets the worktrees of cwd's repository whose folders were deleted by hand.
func (a *API) PruneWorktrees(p PruneParams) (PruneResult, error) {
	if !filepath.IsAbs(p.Cwd) {
		return PruneResult{}, badRequest("Type the repository's full path, starting with %s.", string(filepath.Separator))
	}
	c, cancel := ctx()
	defer cancel()
	pruned, err := gitwork.Prune(c, p.Cwd)
	if err != nil {
		return PruneResult{}, gitProblem(err)
	}
	if pruned == nil {
		pruned = []string{}
	}
	return PruneResult{Pruned: pruned}, nil
}
