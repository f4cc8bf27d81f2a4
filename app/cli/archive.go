package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sessionmeta"
)

const archiveUsage = "baton archive SESSION_ID [--delete-branch] [--force]"

// RunArchive removes a worktree session's worktree (and with --delete-branch its branch). Without --force it
// removes nothing when that would lose work, and lists what: the uncommitted files and the unlanded commits.
func RunArchive(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("archive", archiveUsage, env.Stderr)
	deleteBranch := fs.Bool("delete-branch", false, "delete the session's branch too")
	force := fs.Bool("force", false, "remove it even when uncommitted or unlanded work would be lost")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(words) != 1 {
		return usageError(env.Stderr, archiveUsage, "give exactly one session id (see baton sessions)")
	}
	id := words[0]
	if !protocol.ValidSessionID(id) {
		return usageError(env.Stderr, archiveUsage, "%q is not a session id (a UUID; see baton sessions)", id)
	}
	env = env.forTerminal(false)
	wt, ok := recordedWorktree(env, id)
	if !ok {
		fmt.Fprintf(env.Stderr, "baton: session %s was not started in a worktree (baton exec --worktree), so there is none to archive\n", id)
		return ExitFailure
	}
	res, err := gitwork.Archive(ctx, wt, gitwork.ArchiveOptions{DeleteBranch: *deleteBranch, Force: *force})
	var lose *gitwork.WouldLoseError
	if errors.As(err, &lose) {
		fmt.Fprintf(env.Stderr, "baton: archiving would lose this work, so nothing was removed:\n")
		for _, f := range lose.Uncommitted {
			fmt.Fprintf(env.Stderr, "  uncommitted  %s\n", safeText(f))
		}
		for _, c := range lose.Unlanded {
			fmt.Fprintf(env.Stderr, "  not in %s  %.12s %s\n", safeText(lose.Base), c.Hash, safeText(c.Subject))
		}
		fmt.Fprintln(env.Stderr, "Land or commit it first (baton land), or archive with --force to lose it.")
		return ExitFailure
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	if _, err := env.Meta.Update(id, func(m *sessionmeta.Meta) { m.Worktree = sessionmeta.Worktree{} }); err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
	}
	what := "Removed the worktree " + wt.Path
	if res.AlreadyGone {
		what = "The worktree " + wt.Path + " was already deleted; pruned git's record of it"
	}
	if res.BranchDeleted {
		what += " and deleted the branch " + wt.Branch
	}
	fmt.Fprintln(env.Stdout, what+".")
	return ExitOK
}
