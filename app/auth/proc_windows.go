//go:build windows

package auth

import (
	"os/exec"
	"syscall"
)

// createNoWindow keeps the windowed baton.exe from flashing a console for each sign-in probe.
const createNoWindow = 0x08000000

// ownGroup hides the probe's console; cancelling kills the CLI, and exec.Cmd.WaitDelay bounds the wait for its pipes.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}

// detach is a no-op: `start` already gives the terminal a console of its own.
func detach(cmd *exec.Cmd) {}
