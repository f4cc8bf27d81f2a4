//go:build unix

package auth

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own so a timeout stops anything it started, not just itself.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// detach starts a terminal window outside Baton's process group, so it outlives Baton and ignores its signals.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
