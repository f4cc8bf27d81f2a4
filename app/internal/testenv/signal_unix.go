//go:build unix

package testenv

import (
	"syscall"
	"testing"
)

// Freeze stops process pid dead (SIGSTOP), the way a hung program looks to Baton, and kills it when the test ends.
func Freeze(t testing.TB, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatalf("stop process %d: %v", pid, err)
	}
	t.Cleanup(func() { Kill(pid) })
}

// Kill ends process pid at once (SIGKILL); one already gone is no error, since tests kill what may have ended.
func Kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
