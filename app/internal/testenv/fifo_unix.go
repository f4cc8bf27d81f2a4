//go:build unix

package testenv

import (
	"syscall"
	"testing"
)

// MakeFIFO makes a named pipe at path, or skips the test where the file system has none.
func MakeFIFO(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
}
