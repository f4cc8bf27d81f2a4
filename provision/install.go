package provision

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/baton-console/baton/provision/platform"
)

// layout is the on-disk shape under <data dir>/runtime/claude:
//
//	current.json            pointer to the installed version (written atomically)
//	.lock                   cross-process install lock
//	verified.json           sha256s of executables already hashed, by file identity (verify.go)
//	<version>/claude[.exe]  verified executables; one directory per version because Windows cannot replace a
//	                        running executable
//	<version>/.*.partial    staging files, only while a run is in progress (or after it was killed)
type layout struct {
	root string
}

const (
	pointerName    = "current.json"
	lockName       = ".lock"
	stagingSuffix  = ".partial"
	pointerTmpName = ".current.json.tmp"
)

func newLayout(dataDir string) layout {
	return layout{root: filepath.Join(dataDir, "runtime", "claude")}
}

func (l layout) versionDir(version string) string       { return filepath.Join(l.root, version) }
func (l layout) executable(version, name string) string { return filepath.Join(l.root, version, name) }
func (l layout) pointerPath() string                    { return filepath.Join(l.root, pointerName) }
func (l layout) lockPath() string                       { return filepath.Join(l.root, lockName) }

// stagingPath names a staging file for one artifact inside the version directory, on the same file system as
// its final place so the promotion is a rename.
func (l layout) stagingPath(version, name string) string {
	return filepath.Join(l.root, version, "."+name+stagingSuffix)
}

// Pointer is current.json: which version is installed, where, and where it came from.
type Pointer struct {
	Version     string    `json:"version"`
	Platform    string    `json:"platform"`
	Executable  string    `json:"executable"`
	SHA256      string    `json:"sha256"`
	Size        int64     `json:"size"`
	Source      string    `json:"source"`
	Artifact    string    `json:"artifact,omitempty"`
	URL         string    `json:"url,omitempty"`
	InstalledAt time.Time `json:"installedAt"`
}

// Installed reads the pointer of the last install in dataDir ("" means platform.DataDir()). The executable it names
// may since have been removed or damaged; Select checks that.
func Installed(dataDir string) (Pointer, error) {
	if dataDir == "" {
		d, err := platform.DataDir()
		if err != nil {
			return Pointer{}, err
		}
		dataDir = d
	}
	return readPointer(newLayout(dataDir).pointerPath())
}

func readPointer(path string) (Pointer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Pointer{}, err
	}
	var p Pointer
	if err := json.Unmarshal(b, &p); err != nil {
		return Pointer{}, fmt.Errorf("%s is damaged: %w", path, err)
	}
	return p, nil
}

// writePointer replaces current.json atomically: a reader sees the old or the new pointer, never a torn one.
func writePointer(l layout, p Pointer) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("could not encode %s: %w", pointerName, err)
	}
	tmp := filepath.Join(l.root, pointerTmpName)
	if err := writeSynced(tmp, append(b, '\n')); err != nil {
		_ = os.Remove(tmp)
		return fileError(tmp, "write", err)
	}
	if err := os.Rename(tmp, l.pointerPath()); err != nil {
		_ = os.Remove(tmp)
		return fileError(l.pointerPath(), "replace", err)
	}
	syncDir(l.root)
	return nil
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// promote makes a verified staging file executable and renames it into place. Only verified bytes get here.
func promote(staging, final string) error {
	f, err := os.OpenFile(staging, os.O_RDWR, 0)
	if err != nil {
		return fileError(staging, "open the verified file", err)
	}
	// Flush before the rename so a crash cannot leave a correctly named file with missing bytes.
	if err := f.Sync(); err != nil {
		f.Close()
		return fileError(staging, "flush the verified file", err)
	}
	if err := f.Chmod(0o755); err != nil && runtime.GOOS != "windows" {
		f.Close()
		return fileError(staging, "make the file executable", err)
	}
	if err := f.Close(); err != nil {
		return fileError(staging, "close the verified file", err)
	}
	if err := os.Rename(staging, final); err != nil {
		return fileError(final, "move the verified file into place at", err)
	}
	syncDir(filepath.Dir(final))
	return nil
}

// ready reports whether path looks like an installed executable of the artifact: exact size and, off Windows, the
// executable bit. Its sha256 was verified before it was renamed there; callers check it again (verifyFile)
// because the file may have changed since.
func ready(path string, a Artifact) bool {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() != a.Size {
		return false
	}
	return runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0
}

// removeStaging deletes every staging file in a version directory, and the directory itself when nothing else
// is in it, so no run leaves half-written files behind.
func removeStaging(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), stagingSuffix) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	_ = os.Remove(dir) // fails, as intended, unless the directory is empty
}

// removeOldVersions deletes version directories other than keep, skipping any that is in use. It returns the
// directories it kept because they are in use.
func removeOldVersions(l layout, keep string) (kept []string, err error) {
	entries, err := os.ReadDir(l.root)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || e.Name() == keep || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(l.root, e.Name())
		if inUse(dir) {
			kept = append(kept, dir)
			continue
		}
		if err := os.RemoveAll(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return kept, errors.Join(errs...)
}
