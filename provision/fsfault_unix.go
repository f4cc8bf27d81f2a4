//go:build !windows

package provision

import (
	"errors"
	"io/fs"
	"syscall"
)

// isDiskFull reports ENOSPC and EDQUOT (a quota is a full disk to this user); EFBIG is a file-size limit.
func isDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EFBIG)
}

func isNotWritable(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission)
}
