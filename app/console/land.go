package console

import (
	"errors"
	"strconv"

	"github.com/baton-console/baton/app/gitwork"
)

// LandSession lands a worktree session's branch in its base branch in the main checkout (gitwork.Land). What the
// person has to settle first — a dirty main checkout, another branch checked out there, no message for pending
// work, a conflict (undone, its files listed) — is an outcome with a message saying what to do, not a failure.
func (a *API) LandSession(p LandParams) (LandResult, error) {
	res := LandResult{Method: p.Method, Conflicts: []Conflict{}, DirtyFiles: []string{}}
	if !p.Method.Valid() {
		return res, badRequest("Land by merge, squash or rebase, not %q.", p.Method)
	}
	wt, err := a.worktreeSession(p.Session)
	if err != nil {
		return res, err
	}
	c, cancel := ctx()
	defer cancel()
	landed, err := gitwork.Land(c, wt, gitwork.LandOptions{Method: gitwork.Method(p.Method), Message: p.Message})
	if err != nil {
		return landRefusal(res, err)
	}
	res.Outcome, res.Committed, res.Commits, res.FastForward, res.Head =
		LandOutcomeLanded, landed.Committed, landed.Commits, landed.FastForward, landed.Head
	how := string(p.Method)
	if landed.FastForward && p.Method == LandMethodMerge {
		how = "a fast-forward"
	}
	res.Message = "Landed " + plural(landed.Commits, "commit") + " of " + wt.Branch + " in " + wt.Base + " by " + how + "."
	return res, nil
}

// landRefusal turns what the person can settle into an outcome; anything else fails the call.
func landRefusal(res LandResult, err error) (LandResult, error) {
	var dirty *gitwork.DirtyError
	var wrong *gitwork.WrongBranchError
	var conflict *gitwork.ConflictError
	res.Message = err.Error()
	switch {
	case errors.As(err, &conflict):
		res.Outcome = LandOutcomeConflict
		for _, f := range conflict.Files {
			res.Conflicts = append(res.Conflicts, Conflict{Path: f.Path, Kind: f.Kind})
		}
	case errors.As(err, &dirty):
		res.Outcome, res.DirtyFiles = LandOutcomeDirty, dirty.Files
	case errors.As(err, &wrong):
		res.Outcome = LandOutcomeWrongBranch
	case errors.Is(err, gitwork.ErrNeedMessage):
		res.Outcome = LandOutcomeNeedMessage
	case errors.Is(err, gitwork.ErrNothingToLand):
		res.Outcome = LandOutcomeNothing
	default:
		return res, gitProblem(err)
	}
	return res, nil
}

// OpenPullRequest commits pending work, pushes the session's branch and opens a pull request with the person's gh
// when it is installed and signed in; otherwise the result holds the exact commands to run.
func (a *API) OpenPullRequest(p PRParams) (PRResult, error) {
	wt, err := a.worktreeSession(p.Session)
	if err != nil {
		return PRResult{Commands: []string{}}, err
	}
	c, cancel := ctx()
	defer cancel()
	pr, err := gitwork.OpenPR(c, wt, gitwork.PROptions{Message: p.Message, Title: p.Title, Body: p.Body})
	res := PRResult{Committed: pr.Committed, Pushed: pr.Pushed, Remote: pr.Remote, URL: pr.URL, Reason: pr.Reason, Commands: pr.Commands}
	if res.Commands == nil {
		res.Commands = []string{}
	}
	return res, gitProblem(err)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// PullRequestChecks reads the checks gh reports on the session branch's pull request; without a signed-in gh the
// result holds the command that shows them.
func (a *API) PullRequestChecks(p PRChecksParams) (PRChecksResult, error) {
	res := PRChecksResult{Checks: []PRCheck{}, Commands: []string{}}
	wt, err := a.worktreeSession(p.Session)
	if err != nil {
		return res, err
	}
	c, cancel := ctx()
	defer cancel()
	checks, err := gitwork.PRChecks(c, wt)
	if err != nil {
		return res, gitProblem(err)
	}
	for _, ch := range checks.Checks {
		res.Checks = append(res.Checks, PRCheck{Name: ch.Name, State: ch.State, Bucket: ch.Bucket, Link: ch.Link})
	}
	res.Reason = checks.Reason
	res.Commands = append(res.Commands, checks.Commands...)
	return res, nil
}
