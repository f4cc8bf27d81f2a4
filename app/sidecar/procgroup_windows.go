//go:build windows

package sidecar

import "os/exec"

// On Windows a console Ctrl-C is delivered differently and a child is not killed with its parent's group;
// nothing to arrange here.
func ownProcessGroup(cmd *exec.Cmd) {}

func endProcessGroup(pid int) {}
