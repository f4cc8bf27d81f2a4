package provision

import (
	"os"
	"syscall"
)

// stampOf is a file's identity for the verification cache: the same device, inode, size, modification and
// change time mean the same bytes. The change time cannot be set by a user, and any write or rename moves it.
func stampOf(info os.FileInfo) fileStamp {
	s := fileStamp{Size: info.Size(), ModNs: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.Dev, s.Ino = uint64(st.Dev), uint64(st.Ino) // their types differ between architectures
		s.ChangeNs = st.Ctimespec.Nano()
	}
	return s
}

// stampIsStrong: the stamp includes the inode and change time, so the cache may be kept on disk.
const stampIsStrong = true
