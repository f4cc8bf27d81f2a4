//go:build !windows

package provision

import "os"

// syncDir makes a rename in dir durable; failures only weaken crash safety, so they are ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
