//go:build !windows

package sidecar

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the sidecar (and the claude child it starts) in a process group of its own: a Ctrl-C in
// the terminal then reaches only Baton, which cancels the turn cleanly instead of the sidecar dying with it.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// endProcessGroup asks whatever is left of a dead sidecar's group (its claude child) to stop; SIGTERM lets the
// CLI stop the shells it started.
func endProcessGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
}
