package console

import (
	"errors"

	"github.com/baton-console/baton/app/gitwork"
)

// gitProblem is a gitwork failure as the console reports it: what the person can fix (a folder outside any
// repository, a branch that does not exist, a stale hunk, missing git) is a bad request, whose message already
// says what to do; the rest is internal.
func gitProblem(err error) error {
	if err == nil {
		return nil
	}
	var ge *gitwork.GitError
	var dirty *gitwork.DirtyError
	var wrong *gitwork.WrongBranchError
	var conflict *gitwork.ConflictError
	var lose *gitwork.WouldLoseError
	switch {
	case errors.Is(err, gitwork.ErrNotRepo), errors.Is(err, gitwork.ErrUnknownRef), errors.Is(err, gitwork.ErrNoGit),
		errors.Is(err, gitwork.ErrStaleHunk), errors.Is(err, gitwork.ErrNothingToLand), errors.Is(err, gitwork.ErrNeedMessage),
		errors.As(err, &dirty), errors.As(err, &wrong), errors.As(err, &conflict), errors.As(err, &lose), errors.As(err, &ge):
		// A git command's own refusal (a bad branch name, a taken path…) is git's words about the person's input.
		return &Error{Code: CodeBadRequest, Message: err.Error()}
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}
