//go:build !windows

package receipts

import (
	"os"
	"syscall"
)

// lockInstance holds an exclusive flock for as long as this process runs; the kernel drops it when the process
// dies, however it dies (SIGKILL included).
func lockInstance(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func unlockInstance(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	_ = f.Close()
}

// instanceRuns reports whether the host instance whose lock file this is still runs (holds its lock).
func instanceRuns(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false // no lock file: the host closed cleanly or never registered
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true
	}
	// Not removed: a host that just created its file may be about to lock it.
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
