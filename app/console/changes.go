package console

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/protocol"
)

// SessionChanges lists the files a session changed: in its worktree against the base it branched from
// (committed and uncommitted), else its folder's changes against HEAD — what `baton changes` prints.
func (a *API) SessionChanges(p ChangesParams) (ChangesResult, error) {
	c, cancel := ctx()
	defer cancel()
	t, wt, err := a.sessionTarget(c, p.Session, p.Cwd)
	if err != nil {
		return ChangesResult{}, err
	}
	res := ChangesResult{Folder: t.Dir, Base: "HEAD", Files: []FileChange{}}
	if wt != nil {
		info := worktreeInfo(*wt)
		res.Worktree, res.Base = &info, wt.Base
		if _, err := os.Stat(wt.Path); errors.Is(err, os.ErrNotExist) {
			res.Missing = true // a stale worktree: the panel offers Archive, which prunes git's record
			return res, nil
		}
	}
	files, err := gitwork.Changes(c, t)
	if err != nil {
		return ChangesResult{}, gitProblem(err)
	}
	res.Files = make([]FileChange, len(files))
	for i, f := range files {
		res.Files[i] = FileChange{Path: f.Path, OldPath: f.OldPath, Status: FileStatus(f.Status), Added: f.Added,
			Deleted: f.Deleted, Binary: f.Binary}
	}
	return res, nil
}

// FileDiff reads one changed file's diff against the session's base.
func (a *API) FileDiff(p DiffParams) (FileDiff, error) {
	c, cancel := ctx()
	defer cancel()
	t, _, err := a.sessionTarget(c, p.Session, p.Cwd)
	if err != nil {
		return FileDiff{}, err
	}
	d, err := gitwork.Diff(c, t, gitwork.DiffRequest{Path: p.Path, OldPath: p.OldPath, MaxLines: p.MaxLines})
	if err != nil {
		return FileDiff{}, gitProblem(err)
	}
	res := FileDiff{Path: d.Path, OldPath: d.OldPath, Binary: d.Binary, Truncated: d.Truncated, Hunks: make([]Hunk, len(d.Hunks))}
	for i, h := range d.Hunks {
		res.Hunks[i] = toHunk(h)
	}
	return res, nil
}

// RevertFile puts one file back as it is in the session's base.
func (a *API) RevertFile(p RevertFileParams) (Empty, error) {
	c, cancel := ctx()
	defer cancel()
	t, _, err := a.sessionTarget(c, p.Session, p.Cwd)
	if err != nil {
		return Empty{}, err
	}
	return Empty{}, gitProblem(gitwork.RevertFile(c, t, gitwork.FileChange{Path: p.Path, OldPath: p.OldPath}))
}

// RevertHunk takes one hunk, as FileDiff returned it, back out of its file.
func (a *API) RevertHunk(p RevertHunkParams) (Empty, error) {
	c, cancel := ctx()
	defer cancel()
	t, _, err := a.sessionTarget(c, p.Session, p.Cwd)
	if err != nil {
		return Empty{}, err
	}
	err = gitwork.RevertHunk(c, t, gitwork.DiffRequest{Path: p.Path, OldPath: p.OldPath}, fromHunk(p.Hunk))
	return Empty{}, gitProblem(err)
}

// sessionTarget is where a session's changes are: its recorded worktree against its base, else a folder against
// HEAD (cwd, else the folder the open session runs in, else the one it was stored with).
func (a *API) sessionTarget(c context.Context, id, cwd string) (gitwork.Target, *gitwork.Worktree, error) {
	if !protocol.ValidSessionID(id) {
		return gitwork.Target{}, nil, badRequest("%q is not a session id.", id)
	}
	if wt, ok := a.worktreeOf(id); ok {
		return wt.Target(), &wt, nil
	}
	if cwd != "" {
		if !filepath.IsAbs(cwd) {
			return gitwork.Target{}, nil, badRequest("Type the folder's full path, starting with %s.", string(filepath.Separator))
		}
		return gitwork.Target{Dir: cwd}, nil, nil
	}
	if s, open := a.opts.Sessions.Get(id); open {
		return gitwork.Target{Dir: s.State().Cwd}, nil, nil
	}
	list, err := a.opts.Sessions.ListSessions(c, "", 0)
	if err != nil {
		return gitwork.Target{}, nil, err
	}
	for _, s := range list {
		if s.Session == id && s.Cwd != "" {
			return gitwork.Target{Dir: s.Cwd}, nil, nil
		}
	}
	return gitwork.Target{}, nil, notFound("Session %s has no folder Baton knows; give its folder (cwd).", id)
}

// worktreeOf is the session's recorded worktree.
func (a *API) worktreeOf(id string) (gitwork.Worktree, bool) {
	w := a.meta(id).Worktree
	if w.IsZero() {
		return gitwork.Worktree{}, false
	}
	return gitwork.Worktree{Repo: w.Repo, Path: w.Path, Branch: w.Branch, Base: w.Base}, true
}

// worktreeSession is the session's worktree, or a bad request saying there is none to land or archive.
func (a *API) worktreeSession(id string) (gitwork.Worktree, error) {
	if !protocol.ValidSessionID(id) {
		return gitwork.Worktree{}, badRequest("%q is not a session id.", id)
	}
	wt, ok := a.worktreeOf(id)
	if !ok {
		return wt, badRequest("Session %s was not started in a worktree, so its changes are the folder's own: commit them there with git.", id)
	}
	return wt, nil
}

func toHunk(h gitwork.Hunk) Hunk {
	out := Hunk{OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines, Section: h.Section,
		Lines: make([]DiffLine, len(h.Lines))}
	for i, l := range h.Lines {
		out.Lines[i] = DiffLine{Kind: LineKind(l.Kind), Text: l.Text, Old: l.Old, New: l.New, NoNewline: l.NoNewline}
	}
	return out
}

func fromHunk(h Hunk) gitwork.Hunk {
	out := gitwork.Hunk{OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines, Section: h.Section}
	if len(h.Lines) > 0 {
		out.Lines = make([]gitwork.Line, len(h.Lines))
	}
	for i, l := range h.Lines {
		out.Lines[i] = gitwork.Line{Kind: gitwork.LineKind(l.Kind), Text: l.Text, Old: l.Old, New: l.New, NoNewline: l.NoNewline}
	}
	return out
}
