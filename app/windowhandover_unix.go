//go:build headless && !windows

package app

import (
	"os"
	"syscall"
)

// handOver execs path in place of this process: it returns only if the exec failed.
func handOver(path string) error {
	return syscall.Exec(path, []string{path}, os.Environ())
}
