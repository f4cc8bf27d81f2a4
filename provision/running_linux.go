//go:build linux

package provision

import (
	"os"
	"path/filepath"
	"strings"
)

// runningFrom reports whether any process we can see executes a file inside dir (/proc/<pid>/exe).
func runningFrom(dir string) bool {
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	prefix := dir + string(filepath.Separator)
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		if target, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && strings.HasPrefix(target, prefix) {
			return true
		}
	}
	return false
}
