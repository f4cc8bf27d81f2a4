package provision

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A version directory is "in use" while a live Baton process holds a lease file in it (.in-use-<pid>) or, where
// the OS tells us (Linux), while any process runs an executable from it. Cleanup skips such directories.

const leasePrefix = ".in-use-"

var (
	leaseMu    sync.Mutex
	leaseCount = map[string]int{} // lease path → holders in this process
)

// MarkInUse records that this process runs the executable at exePath, so a newer Baton provisioning concurrently
// does not delete its directory. Call release when no session uses it any more. It is safe to call repeatedly.
func MarkInUse(exePath string) (release func(), err error) {
	lease := filepath.Join(filepath.Dir(exePath), leasePrefix+strconv.Itoa(os.Getpid()))
	leaseMu.Lock()
	defer leaseMu.Unlock()
	if leaseCount[lease] == 0 {
		if err := os.WriteFile(lease, nil, 0o644); err != nil {
			return nil, fmt.Errorf("could not mark %s as in use: %w", exePath, err)
		}
	}
	leaseCount[lease]++
	var once sync.Once
	return func() {
		once.Do(func() {
			leaseMu.Lock()
			defer leaseMu.Unlock()
			leaseCount[lease]--
			if leaseCount[lease] == 0 {
				delete(leaseCount, lease)
				_ = os.Remove(lease)
			}
		})
	}, nil
}

// inUse reports whether dir holds a live lease or a running executable.
func inUse(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		pidStr, ok := strings.CutPrefix(e.Name(), leasePrefix)
		if !ok {
			continue
		}
		if pid, err := strconv.Atoi(pidStr); err == nil && processAlive(pid) {
			return true
		}
	}
	return runningFrom(dir)
}
