//go:build !unix

package testenv

import (
	"os"
	"testing"
)

// Freeze skips the test: Windows has no signal that stops a process and lets it go on.
func Freeze(t testing.TB, pid int) {
	t.Helper()
	t.Skipf("stopping process %d needs SIGSTOP, which this platform lacks", pid)
}

// Kill ends process pid at once; one already gone is no error, since tests kill what may have ended.
func Kill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
