//go:build !windows

package terminal

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

// startPTY starts cmd as the leader of a new session whose controlling terminal is a new PTY (creack/pty sets
// Setsid and Setctty), so its session id is its pid and every program it starts can be found and ended.
func startPTY(cmd *exec.Cmd, cols, rows uint16) (*os.File, error) {
	return pty.StartWithSize(cmd, &pty.Winsize{Cols: cols, Rows: rows})
}

func resizePTY(f *os.File, cols, rows uint16) error {
	return pty.Setsize(f, &pty.Winsize{Cols: cols, Rows: rows})
}

func hangUp(sid int)      { signalSession(sid, syscall.SIGHUP) }
func killSession(sid int) { signalSession(sid, syscall.SIGKILL) }

func signalOf(st *os.ProcessState) (int, bool) {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return int(ws.Signal()), true
}
