package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sessionmeta"
)

const landUsage = "baton land SESSION_ID --merge|--squash|--rebase|--pr|--discard [--message M]"

// RunLand lands a worktree session's work in its base branch (merge, squash or rebase), opens a pull request,
// or discards it. Uncommitted work is committed first with --message.
func RunLand(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("land", landUsage, env.Stderr)
	modes := map[string]*bool{}
	for _, m := range []struct{ name, help string }{
		{"merge", "merge into the base branch in the main checkout (a fast-forward when possible)"},
		{"squash", "land all of the session's work as one commit on the base branch"},
		{"rebase", "replay the session's commits on the base branch, then fast-forward it"},
		{"pr", "push the branch and open a pull request with gh (else print the commands)"},
		{"discard", "throw the session's work away: remove its worktree and delete its branch"},
	} {
		modes[m.name] = fs.Bool(m.name, false, m.help)
	}
	message := fs.String("message", "", "commit uncommitted work with this message (a squash's message too)")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(words) != 1 {
		return usageError(env.Stderr, landUsage, "give exactly one session id (see baton sessions)")
	}
	if !protocol.ValidSessionID(words[0]) {
		return usageError(env.Stderr, landUsage, "%q is not a session id (a UUID; see baton sessions)", words[0])
	}
	var mode string
	for name, on := range modes {
		if *on && mode != "" {
			return usageError(env.Stderr, landUsage, "choose one of --merge, --squash, --rebase, --pr, --discard")
		}
		if *on {
			mode = name
		}
	}
	if mode == "" {
		return usageError(env.Stderr, landUsage, "say how to land: --merge, --squash, --rebase, --pr or --discard")
	}
	env = env.forTerminal(false)
	wt, ok := recordedWorktree(env, words[0])
	if !ok {
		fmt.Fprintf(env.Stderr, "baton: session %s was not started in a worktree (baton exec --worktree), so there is nothing to land\n", words[0])
		return ExitFailure
	}
	switch mode {
	case "pr":
		return landPR(ctx, env, wt, *message)
	case "discard":
		return landDiscard(ctx, env, words[0], wt)
	}
	res, err := gitwork.Land(ctx, wt, gitwork.LandOptions{Method: gitwork.Method(mode), Message: *message})
	if err != nil {
		return landFailed(env, err)
	}
	how := string(res.Method)
	if res.FastForward && res.Method == gitwork.Merge {
		how = "fast-forward"
	}
	fmt.Fprintf(env.Stdout, "Landed %d commit(s) of %s in %s (%s); %s is now %.12s.\n", res.Commits, wt.Branch, wt.Base, how, wt.Base, res.Head)
	return ExitOK
}

func landFailed(env Env, err error) int {
	var conflict *gitwork.ConflictError
	if errors.As(err, &conflict) {
		fmt.Fprintf(env.Stderr, "baton: landing by %s conflicts with %s; nothing was changed:\n", conflict.Method, conflict.Base)
		for _, f := range conflict.Files {
			fmt.Fprintf(env.Stderr, "  %-16s %s\n", f.Kind, f.Path)
		}
		fmt.Fprintf(env.Stderr, "Ask the session to merge %s into its branch and resolve them, then land again.\n", conflict.Base)
		return ExitFailure
	}
	fmt.Fprintf(env.Stderr, "baton: %v\n", err)
	return ExitFailure
}

func landPR(ctx context.Context, env Env, wt gitwork.Worktree, message string) int {
	pr, err := gitwork.OpenPR(ctx, wt, gitwork.PROptions{Message: message})
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	if pr.URL != "" {
		fmt.Fprintf(env.Stdout, "Pushed %s to %s and opened %s\n", wt.Branch, pr.Remote, pr.URL)
	} else {
		fmt.Fprintf(env.Stdout, "Pushed %s to %s; %s, so open the pull request with:\n", wt.Branch, pr.Remote, pr.Reason)
		for _, c := range pr.Commands {
			fmt.Fprintf(env.Stdout, "  %s\n", c)
		}
	}
	printChecks(ctx, env, wt)
	return ExitOK
}

// printChecks prints the checks gh reports on the pull request, or the command that shows them.
func printChecks(ctx context.Context, env Env, wt gitwork.Worktree) {
	checks, err := gitwork.PRChecks(ctx, wt)
	switch {
	case err != nil:
		fmt.Fprintf(env.Stderr, "baton: could not read the pull request's checks: %v\n", err)
	case len(checks.Commands) > 0:
		fmt.Fprintln(env.Stdout, "See its checks with:")
		for _, c := range checks.Commands {
			fmt.Fprintf(env.Stdout, "  %s\n", c)
		}
	case len(checks.Checks) == 0:
		fmt.Fprintln(env.Stdout, "No checks reported yet; see them later with: gh pr checks "+wt.Branch)
	default:
		fmt.Fprintln(env.Stdout, "Checks:")
		for _, c := range checks.Checks {
			fmt.Fprintln(env.Stdout, strings.TrimRight(fmt.Sprintf("  %-8s %s %s", c.Bucket, c.Name, c.Link), " "))
		}
	}
}

func landDiscard(ctx context.Context, env Env, id string, wt gitwork.Worktree) int {
	if _, err := gitwork.Discard(ctx, wt); err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	if _, err := env.Meta.Update(id, func(m *sessionmeta.Meta) { m.Worktree = sessionmeta.Worktree{} }); err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
	}
	fmt.Fprintf(env.Stdout, "Discarded %s: its worktree %s and branch are gone.\n", id, wt.Path)
	return ExitOK
}
