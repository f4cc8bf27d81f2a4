//go:build !windows

package terminal

import (
	"errors"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

// unixProc is a program that leads a new session whose controlling terminal is a new PTY (creack/pty sets Setsid
// and Setctty), so its session id is its pid and every program it starts can be found and ended.
type unixProc struct {
	cmd *exec.Cmd
	f   *os.File
}

func startProc(spec procSpec) (proc, error) {
	cmd := exec.Command(spec.argv[0], spec.argv[1:]...)
	cmd.Dir = spec.dir
	cmd.Env = spec.env
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: spec.cols, Rows: spec.rows})
	if err != nil {
		return nil, err
	}
	return &unixProc{cmd: cmd, f: f}, nil
}

func (p *unixProc) Read(b []byte) (int, error)  { return p.f.Read(b) }
func (p *unixProc) Write(b []byte) (int, error) { return p.f.Write(b) }
func (p *unixProc) pid() int                    { return p.cmd.Process.Pid }
func (p *unixProc) hangUp()                     { signalSession(p.pid(), syscall.SIGHUP) }
func (p *unixProc) kill()                       { signalSession(p.pid(), syscall.SIGKILL) }
func (p *unixProc) close() error                { return p.f.Close() }

func (p *unixProc) resize(cols, rows uint16) error {
	return pty.Setsize(p.f, &pty.Winsize{Cols: cols, Rows: rows})
}

func (p *unixProc) wait() int {
	err := p.cmd.Wait()
	st := p.cmd.ProcessState
	if st == nil {
		return -1
	}
	if code := st.ExitCode(); code >= 0 {
		return code
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return exitErr.ExitCode()
	}
	return -1
}
