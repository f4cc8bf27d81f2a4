package gitwork

import (
	"context"
	"os/exec"
	"strings"
)

// ghLeft is what is left for the person to run when their gh cannot be used: why, and the exact commands.
type ghLeft struct {
	Reason   string
	Commands []string
}

// ghReady finds the person's gh and checks that it is signed in. When it is not ready, it says why and the
// commands that do the work by hand: `cd` to the worktree and `gh` with shown (after `gh auth login` when
// gh is there but signed out).
func ghReady(ctx context.Context, wt Worktree, shown []string) (string, *ghLeft) {
	gh, err := exec.LookPath("gh")
	if err != nil {
		return "", &ghLeft{
			Reason:   "gh (GitHub's CLI) is not on PATH",
			Commands: []string{shellLine("cd", wt.Path), shellLine("gh", shown...)},
		}
	}
	if exec.CommandContext(ctx, gh, "auth", "status").Run() != nil {
		return "", &ghLeft{
			Reason:   "gh is not signed in",
			Commands: []string{"gh auth login", shellLine("cd", wt.Path), shellLine("gh", shown...)},
		}
	}
	return gh, nil
}

// ghRun runs gh with args in the worktree and gives its output and its trimmed stderr.
func ghRun(ctx context.Context, gh string, wt Worktree, args []string) ([]byte, string, error) {
	cmd := exec.CommandContext(ctx, gh, args...)
	cmd.Dir = wt.Path
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	return out, strings.TrimSpace(errb.String()), err
}
