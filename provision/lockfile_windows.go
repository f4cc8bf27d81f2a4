//go:build windows

package provision

import (
	"errors"
	"os"
	"syscall"
)

const errorSharingViolation syscall.Errno = 32

// tryLockFile opens the lock file with no write sharing: Windows refuses a second opener until the holder closes it
// or dies. Reading stays shared so waiters can read the holder's PID.
func tryLockFile(path string) (f *os.File, ok bool, err error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, false, err
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, syscall.FILE_SHARE_READ, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		if errors.Is(err, errorSharingViolation) {
			return nil, false, nil
		}
		return nil, false, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), true, nil
}

func unlockFile(f *os.File) {
	_ = f.Close()
}
