package gitwork

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Method is how a session's branch lands in its base.
type Method string

// The ways to land.
const (
	Merge  Method = "merge"  // a merge commit, or a fast-forward when the base has not moved
	Squash Method = "squash" // one new commit on the base with all of the session's work
	Rebase Method = "rebase" // the session's commits replayed on the base, then a fast-forward
)

// ErrNothingToLand says the branch has no work the base lacks.
var ErrNothingToLand = errors.New("nothing to land: the session's branch has no commits or changes its base lacks")

// ErrNeedMessage says there is uncommitted work and no commit message for it.
var ErrNeedMessage = errors.New("the worktree has uncommitted changes: give a commit message (--message) to commit them")

// DirtyError refuses to land into a main checkout with uncommitted changes to tracked files.
type DirtyError struct {
	Checkout string   `json:"checkout"`
	Files    []string `json:"files"`
}

func (e *DirtyError) Error() string {
	return fmt.Sprintf("the main checkout %s has uncommitted changes (%s); commit or stash them there, then land again",
		e.Checkout, listSome(e.Files))
}

// WrongBranchError refuses to land when the main checkout is not on the session's base branch.
type WrongBranchError struct {
	Checkout string `json:"checkout"`
	Want     string `json:"want"`
	Have     string `json:"have"` // "" : a detached HEAD
}

func (e *WrongBranchError) Error() string {
	have := e.Have
	if have == "" {
		have = "a detached HEAD"
	}
	return fmt.Sprintf("the main checkout %s is on %s, not %s: run `git -C %s switch %s`, then land again",
		e.Checkout, have, e.Want, e.Checkout, e.Want)
}

// Conflict is one file a land could not merge.
type Conflict struct {
	Path string `json:"path"`
	Kind string `json:"kind"` // "both modified", "deleted by them", …
}

// ConflictError reports the files that conflicted. The land was undone: nothing is left half-merged.
type ConflictError struct {
	Method Method     `json:"method"`
	Base   string     `json:"base"`
	Files  []Conflict `json:"files"`
}

func (e *ConflictError) Error() string {
	names := make([]string, len(e.Files))
	for i, c := range e.Files {
		names[i] = c.Path
	}
	return fmt.Sprintf("landing by %s conflicts with %s in %s; nothing was changed: resolve them in the session (merge %s into its branch), then land again",
		e.Method, e.Base, listSome(names), e.Base)
}

// LandOptions say how to land.
type LandOptions struct {
	Method  Method
	Message string // commits uncommitted work first; a squash's commit message
}

// Landed is what a land did.
type Landed struct {
	Method      Method `json:"method"`
	Committed   bool   `json:"committed,omitempty"` // uncommitted work was committed first
	Commits     int    `json:"commits"`             // the session's commits that landed
	FastForward bool   `json:"fastForward,omitempty"`
	Head        string `json:"head"` // the base's new tip
}

// Land commits what is uncommitted (with Message), then brings the session's branch into its base branch in the
// main checkout. It refuses when that checkout is dirty or on another branch; a conflict is undone and reported.
func Land(ctx context.Context, wt Worktree, o LandOptions) (Landed, error) {
	res := Landed{Method: o.Method}
	main := gitAt(wt.Repo)
	if err := checkMain(ctx, wt); err != nil {
		return res, err
	}
	var err error
	if res.Committed, err = commitPending(ctx, wt, o.Message); err != nil {
		return res, err
	}
	count, err := main.line(ctx, "rev-list", "--count", wt.Base+".."+wt.Branch)
	if err != nil {
		return res, err
	}
	if _, err := fmt.Sscan(count, &res.Commits); err != nil || res.Commits == 0 {
		return res, ErrNothingToLand
	}
	ff, _ := main.ok(ctx, "merge-base", "--is-ancestor", wt.Base, wt.Branch)
	switch o.Method {
	case Merge:
		res.FastForward = ff
		err = landMerge(ctx, wt)
	case Squash:
		err = landSquash(ctx, wt, o.Message)
	case Rebase:
		res.FastForward = true
		err = landRebase(ctx, wt, ff)
	default:
		return res, fmt.Errorf("unknown land method %q (merge, squash or rebase)", o.Method)
	}
	if err != nil {
		return res, err
	}
	res.Head, err = commitOf(ctx, main, "HEAD")
	return res, err
}

// checkMain refuses a main checkout that is not on the base branch or has uncommitted tracked changes (untracked
// files are git merge's to refuse, when the land would overwrite one).
func checkMain(ctx context.Context, wt Worktree) error {
	main := gitAt(wt.Repo)
	if isBranch, _ := branchExists(ctx, main, wt.Base); !isBranch {
		return fmt.Errorf("the session started from %s, not a branch, so there is nothing to land into: open a pull request or merge %s by hand", wt.Base, wt.Branch)
	}
	have, err := currentBranch(ctx, wt.Repo)
	if err != nil {
		return err
	}
	if have != wt.Base {
		return &WrongBranchError{Checkout: wt.Repo, Want: wt.Base, Have: have}
	}
	dirty, err := status(ctx, main, false)
	if err != nil {
		return err
	}
	if len(dirty) > 0 {
		return &DirtyError{Checkout: wt.Repo, Files: paths(dirty)}
	}
	return nil
}

// commitPending commits everything uncommitted in the worktree (untracked files too) with message.
func commitPending(ctx context.Context, wt Worktree, message string) (bool, error) {
	g := gitAt(wt.Path)
	pending, err := status(ctx, g, true)
	if err != nil || len(pending) == 0 {
		return false, err
	}
	if strings.TrimSpace(message) == "" {
		return false, ErrNeedMessage
	}
	if _, err := g.run(ctx, "add", "--all"); err != nil {
		return false, err
	}
	if _, err := g.run(ctx, "commit", "--quiet", "-m", message); err != nil {
		return false, fmt.Errorf("commit the session's changes: %w", err)
	}
	return true, nil
}

func landMerge(ctx context.Context, wt Worktree) error {
	main := gitAt(wt.Repo)
	if _, err := main.run(ctx, "merge", "--ff", "--no-edit", "--quiet", wt.Branch); err != nil {
		return undoConflict(ctx, main, err, Merge, wt.Base, "merge", "--abort")
	}
	return nil
}

func landSquash(ctx context.Context, wt Worktree, message string) error {
	main := gitAt(wt.Repo)
	if _, err := main.run(ctx, "merge", "--squash", "--quiet", wt.Branch); err != nil {
		return undoConflict(ctx, main, err, Squash, wt.Base, "reset", "--merge")
	}
	if same, _ := main.ok(ctx, "diff", "--cached", "--quiet"); same {
		return ErrNothingToLand
	}
	if message == "" {
		var err error
		if message, err = squashMessage(ctx, main, wt); err != nil {
			return err
		}
	}
	if _, err := main.run(ctx, "commit", "--quiet", "-m", message); err != nil {
		_, _ = main.run(ctx, "reset", "--merge")
		return fmt.Errorf("commit the squashed work: %w", err)
	}
	// The branch's commits are now one commit on the base: moving the branch there leaves the session with no
	// unlanded work (so archiving it loses nothing) and the base's newer commits in its checkout.
	if _, err := gitAt(wt.Path).run(ctx, "reset", "--quiet", "--keep", wt.Base); err != nil {
		return fmt.Errorf("landed; but moving the session's branch to %s failed: %w", wt.Base, err)
	}
	return nil
}

func squashMessage(ctx context.Context, g git, wt Worktree) (string, error) {
	out, err := g.run(ctx, "log", "--reverse", "--format=* %s", wt.Base+".."+wt.Branch)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Land %s\n\n%s", wt.Branch, strings.TrimSpace(string(out))), nil
}

func landRebase(ctx context.Context, wt Worktree, ff bool) error {
	if !ff {
		session := gitAt(wt.Path)
		if _, err := session.run(ctx, "rebase", "--quiet", wt.Base); err != nil {
			return undoConflict(ctx, session, err, Rebase, wt.Base, "rebase", "--abort")
		}
	}
	if _, err := gitAt(wt.Repo).run(ctx, "merge", "--ff-only", "--quiet", wt.Branch); err != nil {
		return fmt.Errorf("fast-forward %s to the rebased %s: %w", wt.Base, wt.Branch, err)
	}
	return nil
}

// undoConflict reads the conflicted files after a failed merge or rebase, undoes it with undo, and returns a
// *ConflictError (or the failure itself, when nothing conflicted).
func undoConflict(ctx context.Context, g git, failure error, m Method, base string, undo ...string) error {
	entries, err := status(ctx, g, false)
	var files []Conflict
	for _, e := range entries {
		if kind, ok := conflictKinds[e.Code]; ok {
			files = append(files, Conflict{Path: e.Path, Kind: kind})
		}
	}
	if _, uerr := g.run(ctx, undo...); uerr != nil && len(files) > 0 {
		return fmt.Errorf("landing conflicted and undoing it failed; run `git %s` in %s: %w", strings.Join(undo, " "), g.dir, uerr)
	}
	if err != nil || len(files) == 0 {
		return fmt.Errorf("land by %s: %w", m, failure)
	}
	return &ConflictError{Method: m, Base: base, Files: files}
}

// conflictKinds names git status's unmerged codes.
var conflictKinds = map[string]string{
	"UU": "both modified", "AA": "both added", "DD": "both deleted",
	"AU": "added by us", "UA": "added by them", "DU": "deleted by us", "UD": "deleted by them",
}

// listSome names up to five items.
func listSome(items []string) string {
	if len(items) > 5 {
		return strings.Join(items[:5], ", ") + fmt.Sprintf(" and %d more", len(items)-5)
	}
	return strings.Join(items, ", ")
}
