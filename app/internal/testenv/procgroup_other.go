//go:build !unix

package testenv

import "os/exec"

// ownGroup is a no-op off unix: cancelling kills the CLI itself, and exec.Cmd.WaitDelay bounds the
// wait for any child still holding its pipes.
func ownGroup(cmd *exec.Cmd) {}
