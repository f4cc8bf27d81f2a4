//go:build linux

package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// holdingBash has the Bash tool leave a background child (its pid in bg.pid) and run on in the foreground (fg.pid).
const holdingBash = "[bash sh -c 'sleep 300 & echo $! > bg.pid; echo $$ > fg.pid; exec sleep 301']"

// claude killed mid-tool, then Baton itself stopped (SIGTERM) or killed outright (SIGKILL, no code of it runs)
// while the Bash tool's command and a background child it left still run: neither outlives Baton. With claude
// gone nothing of Claude Code's own clean-up ends them; only the sidecar's reaper can.
func TestATurnsProcessesEndWhenBatonIsStoppedOrKilled(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			h := newCLIHarness(t)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := h.command(ctx, "exec", "--approve", "all", "--permission-mode", "default", holdingBash)
			require.NoError(t, cmd.Start())
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			pids := []int{readPID(t, filepath.Join(h.project, "bg.pid")), readPID(t, filepath.Join(h.project, "fg.pid"))}
			for _, pid := range pids {
				require.Truef(t, processExists(pid), "the tool's process %d runs before Baton ends", pid)
			}
			// claude dies first, so nothing of Claude Code's own clean-up ends the tool: its processes are orphans.
			testenv.Kill(claudeUnder(t, cmd.Process.Pid))
			require.NoError(t, cmd.Process.Signal(sig))
			_ = cmd.Wait()
			deadline := time.Now().Add(30 * time.Second)
			for _, pid := range pids {
				for processExists(pid) {
					require.Falsef(t, time.Now().After(deadline), "the tool's process %d outlived Baton (%v)", pid, sig)
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}

// readPID waits (bounded) for a pid file the tool writes, and kills that process when the test ends.
func readPID(t *testing.T, path string) int {
	t.Helper()
	waitForPIDFile(t, path)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	return pid
}

// processExists says pid is in the process table at all, running or a zombie nobody reaped.
func processExists(pid int) bool {
	_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid)))
	return err == nil
}
