// Package gitwork drives the person's own git (and gh) for sessions that run in a worktree of their own: create
// one, list and diff its changes against the base it branched from, revert a file or a hunk, land it into the
// base branch (merge, squash, rebase or a pull request) and archive it. Every step runs the git found on PATH;
// nothing is reimplemented, so what Baton does is what the person would do by hand.
package gitwork

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// ErrNoGit says git is not on PATH.
var ErrNoGit = errors.New("git is not installed or not on PATH; install git and try again")

// ErrNotRepo says a folder is not inside a git repository.
var ErrNotRepo = errors.New("not a git repository")

// GitError is a git command that failed, with what it said.
type GitError struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *GitError) Unwrap() error { return e.Err }

// git runs commands in one folder.
type git struct {
	dir string
	env []string // extra variables (GIT_INDEX_FILE for a scratch index)
}

func gitAt(dir string) git { return git{dir: dir} }

func (g git) with(env ...string) git {
	return git{dir: g.dir, env: append(append([]string(nil), g.env...), env...)}
}

func (g git) command(ctx context.Context, args ...string) (*exec.Cmd, error) {
	path, err := exec.LookPath("git")
	if err != nil {
		return nil, ErrNoGit
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = g.dir
	// No pager, no prompts for credentials on a terminal nobody watches, and git's own (English) words so
	// conflicts and errors read the same everywhere.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "LC_ALL=C")
	cmd.Env = append(cmd.Env, g.env...)
	return cmd, nil
}

// run returns stdout; a failure is a *GitError.
func (g git) run(ctx context.Context, args ...string) ([]byte, error) {
	return g.input(ctx, nil, args...)
}

// input runs with stdin.
func (g git) input(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd, err := g.command(ctx, args...)
	if err != nil {
		return nil, err
	}
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), &GitError{Args: args, Stderr: errb.String(), Err: err}
	}
	return out.Bytes(), nil
}

// line returns stdout's first line, trimmed.
func (g git) line(ctx context.Context, args ...string) (string, error) {
	out, err := g.run(ctx, args...)
	if err != nil {
		return "", err
	}
	s, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(s), nil
}

// ok says whether the command exits 0 (a failure to start git is still an error).
func (g git) ok(ctx context.Context, args ...string) (bool, error) {
	_, err := g.run(ctx, args...)
	if exitCode(err) > 0 {
		return false, nil
	}
	return err == nil, err
}

// exitCode is a finished git's exit status (0: no error, -1: it did not run to an exit).
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() > 0 {
		return ee.ExitCode()
	}
	return -1
}

// splitZ splits NUL-terminated output.
func splitZ(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}
