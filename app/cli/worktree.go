package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
)

// worktreeFlags are exec's --worktree, --branch and --base.
type worktreeFlags struct {
	on     bool
	branch string
	base   string
}

func (w *worktreeFlags) define(fs *flag.FlagSet) {
	fs.BoolVar(&w.on, "worktree", false, "start the session in a new git worktree of the folder's repository (see baton changes, baton land)")
	fs.StringVar(&w.branch, "branch", "", "with --worktree: the branch to check out, existing or new (default: one named from the prompt)")
	fs.StringVar(&w.base, "base", "", "with --worktree: what a new branch starts from and lands into (default: the current branch)")
}

// check says what is wrong with the combination ("" when nothing).
func (w worktreeFlags) check(start session.StartOptions) string {
	switch {
	case !w.on && (w.branch != "" || w.base != ""):
		return "--branch and --base go with --worktree"
	case w.on && (start.Resume != "" || start.ForkFrom != ""):
		return "--worktree starts a new session; a resumed or forked one keeps its folder"
	}
	return ""
}

// startInWorktree makes the session's worktree, records it with the session and points the session there.
func startInWorktree(ctx context.Context, o *execOptions, env Env) int {
	dir := o.start.Cwd
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			fmt.Fprintf(env.Stderr, "baton: %v\n", err)
			return ExitFailure
		}
	}
	c, err := gitwork.Create(ctx, dir, gitwork.CreateOptions{Prompt: o.prompt, Branch: o.worktree.branch, Base: o.worktree.base,
		Output: func(b []byte) { _, _ = env.Stderr.Write(b) }})
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	made := "new branch"
	if !c.NewBranch {
		made = "branch"
	}
	fmt.Fprintf(env.Stderr, "baton: worktree %s (%s %s, base %s)\n", c.Path, made, c.Branch, c.Base)
	o.start.Cwd = c.Cwd
	o.undoWorktree = func() { undoWorktree(ctx, env, o.start.ID, c) }
	if env.Meta == nil {
		fmt.Fprintln(env.Stderr, "baton: Baton's session records could not be opened, so baton changes and baton land will not know this worktree")
		return ExitOK
	}
	record := sessionmeta.Worktree{Repo: c.Repo, Path: c.Path, Branch: c.Branch, Base: c.Base}
	if _, err := env.Meta.Update(o.start.ID, func(m *sessionmeta.Meta) { m.Worktree = record }); err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v (the worktree is not recorded with the session)\n", err)
	}
	return ExitOK
}

// undoWorktree takes back the worktree of a session that failed to start, and its record (gitwork.Undo).
func undoWorktree(ctx context.Context, env Env, id string, c gitwork.Created) {
	if err := gitwork.Undo(context.WithoutCancel(ctx), c); err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
	} else {
		fmt.Fprintf(env.Stderr, "baton: removed the worktree %s, as the session did not start\n", c.Path)
	}
	if env.Meta != nil {
		_, _ = env.Meta.Update(id, func(m *sessionmeta.Meta) { m.Worktree = sessionmeta.Worktree{} })
	}
}

// recordedWorktree is the session's worktree as recorded ("ok" false: none).
func recordedWorktree(env Env, id string) (gitwork.Worktree, bool) {
	if env.Meta == nil {
		return gitwork.Worktree{}, false
	}
	w := env.Meta.Get(id).Worktree
	if w.IsZero() {
		return gitwork.Worktree{}, false
	}
	return gitwork.Worktree{Repo: w.Repo, Path: w.Path, Branch: w.Branch, Base: w.Base}, true
}
