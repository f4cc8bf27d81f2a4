package terminal_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/terminal"
	"github.com/stretchr/testify/require"
)

// A real cmd.exe in a real pseudo console (ConPTY): what is typed reaches it, what it prints comes back, and its
// exit code is reported. Runs on Windows, and under Wine (scripts/windows-smoke runs it there).
func TestConPTYEchoAndExit(t *testing.T) {
	shell := os.Getenv("ComSpec")
	if shell == "" {
		shell = "cmd.exe"
	}
	svc := terminal.New(terminal.Options{Shell: []string{shell}})
	defer svc.Shutdown()
	sub := svc.Subscribe()
	defer sub.Close()
	info, err := svc.Open(terminal.Spec{Dir: t.TempDir(), Owner: "s1", Cols: 100, Rows: 30})
	require.NoError(t, err)

	var mu sync.Mutex
	var out strings.Builder
	exited, code := false, 0
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	read := func(until func() bool) {
		t.Helper()
		for {
			mu.Lock()
			ok := until()
			mu.Unlock()
			if ok {
				return
			}
			outs, err := sub.Next(ctx)
			require.NoError(t, err, "the terminal showed so far: %q", out.String())
			mu.Lock()
			for _, o := range outs {
				out.WriteString(string(o.Data))
				exited, code = exited || o.Exited, o.ExitCode
			}
			mu.Unlock()
		}
	}
	// cmd's caret escape splits the marker, so the echoed command line never matches it.
	require.NoError(t, svc.Write(info.ID, []byte("echo conpty^_OK\r")))
	read(func() bool { return strings.Contains(out.String(), "conpty_OK") })
	require.NoError(t, svc.Resize(info.ID, 120, 40))
	require.NoError(t, svc.Write(info.ID, []byte("exit 3\r")))
	read(func() bool { return exited })
	require.Equal(t, 3, code)
}
