//go:build linux

package cli_test

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/internal/testenv/consolews"
	"github.com/stretchr/testify/require"
)

// A real `baton serve`, stopped (SIGTERM) while a session it runs for a browser holds a Bash tool's foreground
// command and a background child that command left: serve exits 0 and neither process outlives it. Also with
// claude SIGKILLed first, so nothing of Claude Code's own clean-up ends them and only Baton's can.
func TestServeStoppedMidToolLeavesNoProcesses(t *testing.T) {
	for _, claudeKilled := range []bool{false, true} {
		name := "claude running"
		if claudeKilled {
			name = "claude killed first"
		}
		t.Run(name, func(t *testing.T) {
			h := newCLIHarness(t)
			srv := h.serve()
			c := consolews.Connect(t, srv.addr, srv.token)
			var ref console.SessionRef
			require.Nil(t, c.Call("startSession", map[string]any{"cwd": h.project, "permissionMode": "default"}, &ref))
			var turn console.PromptResult
			require.Nil(t, c.Call("sendPrompt", map[string]any{"session": ref.Session, "prompt": holdingBash}, &turn))
			req := c.WaitEvent(func(ev activity.Event) bool {
				return ev.Turn == turn.Turn && ev.Kind == activity.PermissionRequested
			})
			var ans console.AnswerResult
			require.Nil(t, c.Call("answerPermission",
				map[string]any{"session": ref.Session, "requestId": req.RequestID, "verdict": "allow"}, &ans))
			require.True(t, ans.Settled)
			pids := []int{readPID(t, filepath.Join(h.project, "bg.pid")), readPID(t, filepath.Join(h.project, "fg.pid"))}
			for _, pid := range pids {
				require.Truef(t, processExists(pid), "the tool's process %d runs before serve stops", pid)
			}
			if claudeKilled {
				testenv.Kill(claudeUnder(t, srv.cmd.Process.Pid))
			}

			require.NoError(t, srv.cmd.Process.Signal(syscall.SIGTERM))
			select {
			case err := <-srv.exited:
				require.NoError(t, err, "baton serve exits 0 on SIGTERM")
			case <-time.After(60 * time.Second):
				t.Fatal("baton serve did not exit within 60 s of SIGTERM")
			}
			deadline := time.Now().Add(30 * time.Second)
			for _, pid := range pids {
				for processExists(pid) {
					require.Falsef(t, time.Now().After(deadline), "the tool's process %d outlived baton serve", pid)
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}

// servedBaton is a running `baton serve`: where its console is, and its exit.
type servedBaton struct {
	cmd         *exec.Cmd
	addr, token string
	exited      <-chan error
}

// serve starts `baton serve` on a free loopback port and reads the URL it prints first; the test's end kills it.
func (h *cliHarness) serve() servedBaton {
	h.t.Helper()
	cmd := h.command(context.Background(), "serve", "--listen", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	require.NoError(h.t, err)
	require.NoError(h.t, cmd.Start())
	exited := make(chan error, 1)
	printed := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		printed <- strings.TrimSpace(line)
		exited <- cmd.Wait()
	}()
	h.t.Cleanup(func() { _ = cmd.Process.Kill() })
	var url string
	select {
	case url = <-printed:
	case <-time.After(60 * time.Second):
		h.t.Fatal("baton serve printed no address within 60 s")
	}
	base, token, ok := strings.Cut(url, "/#token=")
	require.Truef(h.t, ok && token != "", "a console URL with its token: %q", url)
	return servedBaton{cmd: cmd, addr: strings.TrimPrefix(base, "http://"), token: token, exited: exited}
}
