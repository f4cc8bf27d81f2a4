package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// SidecarPath is the compiled sidecar under test: $BATON_SIDECAR, else <repo>/build/bin/baton-sidecar. It fails
// the test, saying what to run, when the sidecar has not been built.
func SidecarPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("BATON_SIDECAR"); p != "" {
		return p
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "build", "bin", "baton-sidecar")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the compiled sidecar is missing (%s): run scripts/build first", p)
	}
	return p
}
