//go:build linux

package session_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// environ reads a running process's environment.
func environ(t *testing.T, pid int) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "environ"))
	require.NoError(t, err)
	out := map[string]string{}
	for _, kv := range strings.Split(string(data), "\x00") {
		if name, value, ok := strings.Cut(kv, "="); ok {
			out[name] = value
		}
	}
	return out
}

// The runtime options the host sets for the sidecar's JavaScript engine stay with the sidecar: claude, a Bun
// program too, runs with the environment it would have without them.
func TestSidecarRuntimeOptionsDoNotReachClaude(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "hello")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)

	side := environ(t, s.SidecarPID())
	require.Equal(t, "0", side["BUN_JSC_useFTLJIT"])
	require.Equal(t, "BUN_JSC_useFTLJIT", side["BATON_SIDECAR_ONLY_ENV"])
	cli := environ(t, claudePID(t, s))
	require.NotContains(t, cli, "BUN_JSC_useFTLJIT")
	require.NotContains(t, cli, "BATON_SIDECAR_ONLY_ENV")
	require.Equal(t, side["HOME"], cli["HOME"], "everything else passes on")
}
