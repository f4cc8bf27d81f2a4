//go:build !linux && !windows

package terminal

import "syscall"

// signalSession signals the session leader's process group; without /proc, jobs in groups of their own are left to
// the hang-up the closing terminal sends them.
func signalSession(sid int, sig syscall.Signal) { _ = syscall.Kill(-sid, sig) }
