//go:build windows

package sidecar

import (
	"os/exec"
	"syscall"
)

// createNoWindow keeps a windowed baton.exe from opening a console window for every sidecar it starts.
const createNoWindow = 0x08000000

func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
}

// A Windows child is not killed with its parent's group; the claude CLI exits when its stdin closes.
func endProcessGroup(pid int) {}
