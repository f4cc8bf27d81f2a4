//go:build !windows

package provision

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid names a live process (EPERM: alive, owned by someone else).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
