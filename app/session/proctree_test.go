//go:build !windows

package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// holdArg makes this test binary a process that runs until it is killed: what a Bash tool leaves running.
const holdArg = "-baton-proctree-hold"

func init() {
	if len(os.Args) == 2 && os.Args[1] == holdArg {
		select {}
	}
}

// holdingBash is a Bash tool call that starts a background process and then runs one in the foreground, both
// recording their pids in pidFile: claude runs the command in a process group of its own, so neither is in the
// sidecar's group.
func holdingBash(t *testing.T, pidFile string) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	hold := "'" + exe + "' " + holdArg
	return "[bash " + hold + " & echo $! >> " + pidFile + "; echo $$ >> " + pidFile + "; exec " + hold + "]"
}

// startHolding starts a session, runs holdingBash in it (allowing it) and returns the session and both pids once
// they run. The pids are killed when the test ends, whatever it found.
func startHolding(t *testing.T, h *harness) (*session.Session, []int) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pids")
	s := h.start(sessionOpts())
	turn := h.exec(s, holdingBash(t, pidFile))
	req := h.waitPermission(turn)
	require.True(t, h.answer(s, req.RequestID, "allow", ""))
	var pids []int
	deadline := time.Now().Add(60 * time.Second)
	for len(pids) < 2 {
		require.True(t, time.Now().Before(deadline), "the Bash tool did not start its processes")
		b, _ := os.ReadFile(pidFile)
		pids = pids[:0]
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	for _, pid := range pids {
		require.Truef(t, testenv.Alive(pid), "the tool's process %d runs", pid)
	}
	return s, pids
}

// requireGone waits (bounded) until none of pids runs or lingers as a zombie.
func requireGone(t *testing.T, pids []int, what string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, pid := range pids {
		for {
			_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid)))
			if os.IsNotExist(err) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the Bash tool's process %d still exists (running or a zombie) after %s", pid, what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// claude killed mid-tool, then the session closed: what the tool started ends too.
func TestBashToolProcessesEndWithTheSessionAfterClaudeIsKilled(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s, pids := startHolding(t, h)
	sidecar := s.SidecarPID()
	require.NoError(t, syscall.Kill(claudePID(t, s), syscall.SIGKILL))
	h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool {
		return ev.Session == s.ID() && (ev.Kind == activity.SessionClosed || ev.Terminal())
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = s.Close(ctx) // the session may already count as closed: claude's death ended it
	requireGone(t, []int{sidecar}, "the session closed")
	requireGone(t, pids, "claude was killed and the session closed")
}

// claude killed mid-tool, then the host stops (as `baton serve` does on SIGTERM): nothing is left behind.
func TestBashToolProcessesEndWhenTheHostStops(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s, pids := startHolding(t, h)
	require.NoError(t, syscall.Kill(claudePID(t, s), syscall.SIGKILL))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h.m.Shutdown(ctx)
	requireGone(t, pids, "claude was killed and the host shut down")
}

// The sidecar killed mid-tool: its claude and the tool's processes end with it.
func TestBashToolProcessesEndWhenTheSidecarDies(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s, pids := startHolding(t, h)
	claude := claudePID(t, s)
	require.NoError(t, syscall.Kill(s.SidecarPID(), syscall.SIGKILL))
	requireGone(t, append(pids, claude), "the sidecar was killed")
}

// A plain close mid-tool ends the tool's processes as well.
func TestBashToolProcessesEndWhenTheSessionCloses(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s, pids := startHolding(t, h)
	h.close(s)
	requireGone(t, pids, "the session closed")
}
