package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// RecordingSidecarPath is SidecarPath behind a POSIX shell script that creates the file marker each time it
// starts: a test of "nothing started" checks that marker does not exist. It skips the test on Windows.
func RecordingSidecarPath(t testing.TB, marker string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the recording sidecar is a shell script")
	}
	real := SidecarPath(t)
	p := filepath.Join(t.TempDir(), "baton-sidecar")
	body := "#!/bin/sh\n: > " + shellQuote(marker) + "\nexec " + shellQuote(real) + " \"$@\"\n"
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatalf("write the recording sidecar: %v", err)
	}
	return p
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
