//go:build windows

package receipts

import "os"

// On Windows an open file with no share-delete flag cannot be removed; that stands in for the lock.
func lockInstance(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}

func unlockInstance(f *os.File) { _ = f.Close() }

func instanceRuns(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return true // held open elsewhere
	}
	_ = f.Close()
	return false
}
