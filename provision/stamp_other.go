//go:build !linux && !darwin

package provision

import "os"

// stampOf is a file's identity for the verification cache. Without an inode and change time (Windows) it is the
// size and modification time, which a writer can preserve: the cache is kept in memory only there.
func stampOf(info os.FileInfo) fileStamp {
	return fileStamp{Size: info.Size(), ModNs: info.ModTime().UnixNano()}
}

const stampIsStrong = false
