package sidecar

import (
	"os"
	"path/filepath"
	"runtime"
)

// DefaultPath finds the sidecar executable: BATON_SIDECAR when set, else beside the running binary
// (Contents/Resources on macOS). When it is nowhere, the expected path is returned so that starting a session
// reports it; commands that need no session still work.
func DefaultPath() string {
	if p := os.Getenv("BATON_SIDECAR"); p != "" {
		return p
	}
	self, err := os.Executable()
	if err != nil {
		return "baton-sidecar"
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	name := "baton-sidecar"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	dir := filepath.Dir(self)
	candidates := []string{filepath.Join(dir, name)}
	if runtime.GOOS == "darwin" {
		candidates = append(candidates, filepath.Join(dir, "..", "Resources", name))
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return candidates[0]
}
