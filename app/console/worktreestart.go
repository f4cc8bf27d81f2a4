package console

import (
	"context"
	"sync"

	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/google/uuid"
)

// maxSetupOutput bounds the setup command's output kept for the console: its tail, where errors are.
const maxSetupOutput = 64 << 10

// startInWorktree makes a new session's worktree (gitwork.Create: .worktreeinclude, the setup command, the
// repository's baton.* settings, else the saved branch prefix), points opts there and records the worktree with the
// session's id, chosen here so the record exists before the session does.
func (a *API) startInWorktree(c context.Context, opts *session.StartOptions, w WorktreeStart) (StartResult, error) {
	var res StartResult
	if opts.Resume != "" || opts.ForkFrom != "" {
		return res, badRequest("A worktree is for a new session; a resumed or forked one keeps its folder.")
	}
	var out tailBuffer
	created, err := gitwork.Create(c, opts.Cwd, gitwork.CreateOptions{Prompt: w.Prompt, Branch: w.Branch, Base: w.Base, Output: out.write,
		BranchPrefix: a.branchPrefix()})
	if err != nil {
		return res, setupProblem(gitProblem(err), out.String())
	}
	res.Worktree = &WorktreeStarted{Repo: created.Repo, Path: created.Path, Branch: created.Branch, Base: created.Base,
		NewBranch: created.NewBranch, Copied: created.Copied, SetupOutput: out.String()}
	if res.Worktree.Copied == nil {
		res.Worktree.Copied = []string{}
	}
	opts.ID, opts.Cwd = uuid.NewString(), created.Cwd
	res.Cwd = created.Cwd
	if a.opts.Meta == nil {
		a.opts.Logger.Warn().Str("session", opts.ID).Msg("no data folder: the session's worktree is not recorded")
		return res, nil
	}
	record := sessionmeta.Worktree{Repo: created.Repo, Path: created.Path, Branch: created.Branch, Base: created.Base}
	if _, err := a.opts.Meta.Update(opts.ID, func(m *sessionmeta.Meta) { m.Worktree = record }); err != nil {
		a.opts.Logger.Warn().Err(err).Str("session", opts.ID).Msg("could not record the session's worktree")
	}
	return res, nil
}

// undoWorktree takes back the worktree made for a session that then failed to start (gitwork.Undo) and its
// record, so a failed start leaves no folder, branch or record behind.
func (a *API) undoWorktree(id string, w *WorktreeStarted) {
	c, cancel := ctx()
	defer cancel()
	created := gitwork.Created{Worktree: gitwork.Worktree{Repo: w.Repo, Path: w.Path, Branch: w.Branch, Base: w.Base},
		NewBranch: w.NewBranch}
	if err := gitwork.Undo(c, created); err != nil {
		a.opts.Logger.Warn().Err(err).Str("session", id).Msg("could not remove the worktree of a session that failed to start")
	}
	if a.opts.Meta != nil {
		if _, err := a.opts.Meta.Update(id, func(m *sessionmeta.Meta) { m.Worktree = sessionmeta.Worktree{} }); err != nil {
			a.opts.Logger.Warn().Err(err).Str("session", id).Msg("could not forget the worktree of a session that failed to start")
		}
	}
}

func worktreeInfo(w gitwork.Worktree) WorktreeInfo {
	return WorktreeInfo{Repo: w.Repo, Path: w.Path, Branch: w.Branch, Base: w.Base}
}

// tailBuffer keeps the last maxSetupOutput bytes written to it; the setup command writes from its own goroutines.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) write(b []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - maxSetupOutput; over > 0 {
		t.buf = append([]byte(nil), t.buf[over:]...)
	}
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// maxShownOutput bounds the setup output quoted in a failure's message.
const maxShownOutput = 2000

// setupProblem adds the tail of the setup command's output to a failed start, so the person sees why it failed.
func setupProblem(err error, output string) error {
	e := AsError(err)
	if output == "" {
		return e
	}
	if len(output) > maxShownOutput {
		output = "…" + output[len(output)-maxShownOutput:]
	}
	return &Error{Code: e.Code, Message: e.Message + "\nIts output:\n" + output}
}
