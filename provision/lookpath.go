package provision

import (
	"os"
	"path/filepath"
	"runtime"
)

// findExecutable finds name in a PATH value. On Windows only name.exe counts: npm's .cmd shims cannot be spawned
// without a shell.
func findExecutable(name, pathEnv string) string {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would make the choice depend on the working directory
		}
		p := filepath.Join(dir, name)
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}
