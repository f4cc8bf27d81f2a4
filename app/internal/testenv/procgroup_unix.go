//go:build unix

package testenv

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own; cancelling sends SIGTERM to the group. SIGTERM,
// not SIGKILL: the CLI runs Bash commands in sessions of their own, out of reach of a group kill, and
// only stops them itself when it is allowed to exit. exec.Cmd.WaitDelay then SIGKILLs a CLI that hangs.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
}
