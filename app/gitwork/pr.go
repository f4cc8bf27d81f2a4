package gitwork

import (
	"context"
	"fmt"
	"strings"
)

// PROptions say how to open a pull request.
type PROptions struct {
	Message string // commits uncommitted work first
	Remote  string // default: the base branch's remote, else origin
	Title   string // default: gh's own (--fill: from the commits)
	Body    string
}

// PR is what opening a pull request did, or what is left for the person to run.
type PR struct {
	Committed bool     `json:"committed,omitempty"`
	Pushed    bool     `json:"pushed"`
	Remote    string   `json:"remote"`
	URL       string   `json:"url,omitempty"`      // the pull request gh opened
	Commands  []string `json:"commands,omitempty"` // without a signed-in gh: the exact commands to run
	Reason    string   `json:"reason,omitempty"`   // why Commands are left to run
}

// OpenPR commits pending work, pushes the session's branch and opens a pull request against its base with the
// person's gh when it is on PATH and signed in; otherwise it says the commands that would.
func OpenPR(ctx context.Context, wt Worktree, o PROptions) (PR, error) {
	var res PR
	var err error
	if res.Committed, err = commitPending(ctx, wt, o.Message); err != nil {
		return res, err
	}
	g := gitAt(wt.Path)
	if res.Remote, err = pickRemote(ctx, g, wt.Base, o.Remote); err != nil {
		return res, err
	}
	if _, err := g.run(ctx, "push", "--quiet", "--set-upstream", res.Remote, wt.Branch); err != nil {
		return res, fmt.Errorf("push %s to %s (run `git -C %s push -u %s %s` to see why): %w",
			wt.Branch, res.Remote, wt.Path, res.Remote, wt.Branch, err)
	}
	res.Pushed = true
	args := []string{"pr", "create", "--base", wt.Base, "--head", wt.Branch}
	if o.Title != "" {
		args = append(args, "--title", o.Title, "--body", o.Body)
	} else {
		args = append(args, "--fill")
	}
	gh, left := ghReady(ctx, wt, args)
	if left != nil {
		res.Reason, res.Commands = left.Reason, left.Commands
		return res, nil
	}
	out, stderr, err := ghRun(ctx, gh, wt, args)
	if err != nil {
		return res, fmt.Errorf("gh pr create: %s (%w)", stderr, err)
	}
	lines := strings.Fields(strings.TrimSpace(string(out)))
	if len(lines) > 0 {
		res.URL = lines[len(lines)-1] // gh prints the pull request's address last
	}
	return res, nil
}

// pickRemote is the given remote, else the base branch's, else origin; it must exist.
func pickRemote(ctx context.Context, g git, base, given string) (string, error) {
	remote := given
	if remote == "" {
		remote, _ = g.line(ctx, "config", "--get", "branch."+base+".remote")
	}
	if remote == "" {
		remote = "origin"
	}
	if ok, err := g.ok(ctx, "remote", "get-url", remote); err != nil || !ok {
		return "", fmt.Errorf("the repository has no remote %q to push to: add one with `git remote add %s URL`: %w", remote, remote, errOr(err, ErrUnknownRef))
	}
	return remote, nil
}

// shellLine quotes a command for a POSIX shell, so it can be pasted as is.
func shellLine(name string, args ...string) string {
	parts := []string{name}
	for _, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			parts = append(parts, a)
			continue
		}
		parts = append(parts, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(parts, " ")
}
