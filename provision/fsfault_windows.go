//go:build windows

package provision

import (
	"errors"
	"io/fs"
	"syscall"
)

// Windows error codes the syscall package does not name.
const (
	errorHandleDiskFull syscall.Errno = 39
	errorDiskFull       syscall.Errno = 112
	errorWriteProtect   syscall.Errno = 19
)

func isDiskFull(err error) bool {
	return errors.Is(err, errorDiskFull) || errors.Is(err, errorHandleDiskFull)
}

func isNotWritable(err error) bool {
	return errors.Is(err, errorWriteProtect) || errors.Is(err, fs.ErrPermission)
}
