package cli_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// Ctrl-C while a real command runs: the tool call ends on the wire (tool.interrupted, once, before the turn's
// end), with Claude Code answering the interrupt and with Claude Code stopped dead (a second Ctrl-C forces it).
func TestExecCtrlCSettlesTheRunningTool(t *testing.T) {
	for _, stopped := range []bool{false, true} {
		name := "responsive claude"
		if stopped {
			name = "SIGSTOPped claude"
		}
		t.Run(name, func(t *testing.T) {
			h := newCLIHarness(t)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := h.command(ctx, "exec", "--json", "--approve", "all", "--permission-mode", "default",
				"[bash sh -c 'echo $$ > exec.pid; exec sleep 41']")
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			stderr := &testenv.LockedBuffer{}
			cmd.Stderr = stderr
			require.NoError(t, cmd.Start())
			var lines []string
			sc := bufio.NewScanner(stdout)
			sc.Buffer(make([]byte, 1<<20), 16<<20)
			signaled := false
			for sc.Scan() {
				lines = append(lines, sc.Text())
				if signaled || !strings.Contains(sc.Text(), `"kind":"tool.started"`) {
					continue
				}
				waitForPIDFile(t, filepath.Join(h.project, "exec.pid"))
				if stopped {
					freezeClaude(t, cmd.Process.Pid)
				}
				require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
				if stopped {
					require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "canceling the turn") },
						10*time.Second, 10*time.Millisecond)
					require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
				}
				signaled = true
			}
			err = cmd.Wait()
			require.True(t, signaled, "no tool started; stderr: %s", stderr.String())
			var exitErr *exec.ExitError
			require.True(t, errors.As(err, &exitErr), "%v", err)
			require.Equal(t, 130, exitErr.ExitCode(), stderr.String())

			events := parseEvents(t, strings.Join(lines, "\n"))
			started := find(events, activity.ToolStarted)
			require.Len(t, started, 1)
			var ends []activity.Event
			for _, ev := range events {
				if ev.ToolUseID == started[0].ToolUseID && (ev.Kind == activity.ToolCompleted || ev.Kind == activity.ToolFailed || ev.Kind == activity.ToolInterrupted) {
					ends = append(ends, ev)
				}
			}
			require.Len(t, ends, 1, "one end for the call; stderr: %s", stderr.String())
			require.Equal(t, activity.ToolInterrupted, ends[0].Kind)
			require.Equal(t, activity.ToolInterruptCauseCancel, ends[0].Cause)
			canceled := find(events, activity.TurnCanceled)
			require.Len(t, canceled, 1)
			require.Less(t, ends[0].Seq, canceled[0].Seq)
			require.Equal(t, stopped, canceled[0].Forced != nil && *canceled[0].Forced)
		})
	}
}

// waitForPIDFile waits until the command wrote its pid, and makes sure the command ends with the test.
func waitForPIDFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			require.NoError(t, err)
			t.Cleanup(func() { testenv.Kill(pid) })
			return
		}
		require.False(t, time.Now().After(deadline), "the command never started")
		time.Sleep(20 * time.Millisecond)
	}
}
