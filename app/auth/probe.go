package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"strings"
	"time"
)

// DefaultProbeTimeout bounds one `claude auth status` run (about 0.5 s when healthy).
const DefaultProbeTimeout = 15 * time.Second

// maxReportBytes bounds what Baton reads from the probe: a report is well under 4 KiB.
const maxReportBytes = 1 << 20

// probeRequest is one `claude auth status --json` run.
type probeRequest struct {
	Executable string
	Env        []string // the whole environment (the sessions' one)
	Dir        string   // working directory; "" = Baton's own
	Timeout    time.Duration
}

// runProbe asks the CLI for its sign-in state. Every failure becomes an unknown State whose reason a person can
// act on; it never carries the CLI's output, which is not ours to show.
func runProbe(ctx context.Context, req probeRequest) State {
	if req.Executable == "" {
		return unknownState("No claude executable was found. Run `baton provision` to install it.")
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, req.Executable, "auth", "status", "--json")
	cmd.Env, cmd.Dir = req.Env, req.Dir
	var stdout, stderr limitedBuffer
	stdout.limit, stderr.limit = maxReportBytes, 64<<10
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &stdout, &stderr, nil
	ownGroup(cmd)
	cmd.WaitDelay = 2 * time.Second

	err := cmd.Run()
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return unknownState(fmt.Sprintf("claude did not report its sign-in within %s (%s auth status). "+
				"It may be stuck or the machine overloaded; Baton will check again when the sign-in files change.", timeout, req.Executable))
		}
		return unknownState("The sign-in check was stopped before claude answered.")
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return unknownState(fmt.Sprintf("Baton could not run claude at %s: %s.", req.Executable, startFailure(err)))
	}
	report, perr := parseReport(bytes.TrimSpace(stdout.Bytes()))
	if perr == nil {
		return stateFromReport(report, req.Env)
	}
	if looksTooOld(stderr.Bytes()) {
		return unknownState(fmt.Sprintf("The claude at %s is too old to report its sign-in (it has no `auth status` command). "+
			"Run `baton provision` to install the pinned version.", req.Executable))
	}
	if exitErr != nil {
		return unknownState(fmt.Sprintf("claude auth status failed with exit status %d and no sign-in report (%s).",
			exitErr.ExitCode(), req.Executable))
	}
	return unknownState(fmt.Sprintf("claude auth status printed something Baton does not understand (%s). "+
		"Run `baton provision` to install the pinned version.", req.Executable))
}

// startFailure says in words why the executable did not start, without Go's syscall jargon.
func startFailure(err error) string {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return "the file does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "it is not executable (permission denied)"
	default:
		return err.Error()
	}
}

// looksTooOld recognises the CLI's complaint about an unknown subcommand. Only matched, never shown.
func looksTooOld(stderr []byte) bool {
	s := strings.ToLower(string(stderr))
	return strings.Contains(s, "unknown command") || strings.Contains(s, "unknown option") ||
		strings.Contains(s, "too many arguments")
}

// limitedBuffer keeps the first limit bytes written and discards the rest, so a runaway child cannot
// exhaust memory.
type limitedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.limit - b.Len(); room > 0 {
		if len(p) > room {
			b.Buffer.Write(p[:room])
		} else {
			b.Buffer.Write(p)
		}
	}
	return len(p), nil
}

var _ io.Writer = (*limitedBuffer)(nil)
