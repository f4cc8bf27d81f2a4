//go:build !unix && !windows

package auth

import "os/exec"

// ownGroup is a no-op off unix: cancelling kills the CLI, and exec.Cmd.WaitDelay bounds the wait for its pipes.
func ownGroup(cmd *exec.Cmd) {}

// detach is a no-op off unix: `start` already gives the terminal a console of its own.
func detach(cmd *exec.Cmd) {}
