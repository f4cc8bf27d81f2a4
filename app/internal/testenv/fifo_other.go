//go:build !unix

package testenv

import "testing"

// MakeFIFO skips the test: named pipes in the file system are a unix thing.
func MakeFIFO(t testing.TB, path string) {
	t.Helper()
	t.Skipf("no FIFO at %s: this platform has none in its file system", path)
}
