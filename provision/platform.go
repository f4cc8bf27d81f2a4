package provision

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
)

// Platform names a release target the way the manifest and the npm packages do: darwin|linux|win32 × x64|arm64,
// with musl distinguished from glibc on Linux.
type Platform struct {
	OS   string // "darwin", "linux" or "win32"
	Arch string // "x64" or "arm64"
	Musl bool   // Linux only
}

// String returns the manifest key, e.g. "linux-x64-musl".
func (p Platform) String() string {
	s := p.OS + "-" + p.Arch
	if p.Musl {
		s += "-musl"
	}
	return s
}

// ParsePlatform reads a manifest key such as "linux-arm64-musl".
func ParsePlatform(s string) (Platform, error) {
	parts := strings.Split(s, "-")
	if len(parts) < 2 || len(parts) > 3 {
		return Platform{}, fmt.Errorf("platform %q is not <os>-<arch>[-musl]", s)
	}
	p := Platform{OS: parts[0], Arch: parts[1], Musl: len(parts) == 3}
	if len(parts) == 3 && (parts[2] != "musl" || p.OS != "linux") {
		return Platform{}, fmt.Errorf("platform %q: only linux has a -musl variant", s)
	}
	switch p.OS {
	case "darwin", "linux", "win32":
	default:
		return Platform{}, fmt.Errorf("platform %q: unsupported operating system %q", s, p.OS)
	}
	if p.Arch != "x64" && p.Arch != "arm64" {
		return Platform{}, fmt.Errorf("platform %q: unsupported architecture %q", s, p.Arch)
	}
	return p, nil
}

// CurrentPlatform describes the machine Baton runs on.
func CurrentPlatform() (Platform, error) {
	return platformFor(runtime.GOOS, runtime.GOARCH, os.DirFS("/"))
}

func platformFor(goos, goarch string, root fs.FS) (Platform, error) {
	var p Platform
	switch goos {
	case "darwin", "linux":
		p.OS = goos
	case "windows":
		p.OS = "win32"
	default:
		return Platform{}, fmt.Errorf("claude is not published for the %s operating system", goos)
	}
	switch goarch {
	case "amd64":
		p.Arch = "x64"
	case "arm64":
		p.Arch = "arm64"
	default:
		return Platform{}, fmt.Errorf("claude is not published for the %s architecture", goarch)
	}
	if p.OS == "linux" {
		p.Musl = isMuslSystem(root)
	}
	return p, nil
}

// isMuslSystem reports a musl-only system. Baton is a static Go binary, so it cannot ask its own libc; it looks
// for the dynamic loaders instead. A glibc loader wins: Debian's musl-tools install ld-musl beside glibc.
func isMuslSystem(root fs.FS) bool {
	glibc := []string{"lib/ld-linux-*.so.*", "lib64/ld-linux-*.so.*", "lib/*-linux-gnu/libc.so.6", "usr/lib/*-linux-gnu/libc.so.6", "lib64/libc.so.6", "usr/lib64/libc.so.6"}
	for _, pattern := range glibc {
		if m, _ := fs.Glob(root, pattern); len(m) > 0 {
			return false
		}
	}
	m, _ := fs.Glob(root, "lib/ld-musl-*.so.1")
	return len(m) > 0
}
