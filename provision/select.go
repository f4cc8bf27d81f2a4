package provision

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
	"github.com/baton-console/baton/provision/platform"
)

// Where a selected executable came from.
const (
	FromEnv         = "env"         // CLAUDE_CODE_EXECUTABLE, used as given
	FromSDKPackage  = "sdk-package" // the SDK's own native package in a dev tree
	FromProvisioned = "provisioned" // installed by Ensure
	FromPath        = "path"        // a claude on PATH that is the pinned build (its sha256 is the manifest's)
)

// Selection is the executable Baton passes to the sidecar.
type Selection struct {
	Path     string `json:"path"`
	Source   string `json:"source"`            // FromEnv, FromSDKPackage, FromProvisioned or FromPath
	Version  string `json:"version,omitempty"` // empty for FromEnv unless probed
	Verified bool   `json:"verified"`          // its sha256 matched the manifest (at install, or just now)
	Warning  string `json:"warning,omitempty"`
}

// SelectOptions tells Select where to look; zero values mean the real environment.
type SelectOptions struct {
	Manifest *Manifest           // default Pinned()
	Platform string              // default CurrentPlatform()
	DataDir  string              // default platform.DataDir()
	Getenv   func(string) string // default os.Getenv; reads CLAUDE_CODE_EXECUTABLE, BATON_DEV_TREE and PATH

	// VerifyChecksum also hashes CLAUDE_CODE_EXECUTABLE, to report Verified (doctor sets it). It never changes the
	// choice: every other candidate is always verified.
	VerifyChecksum  bool
	ProbeEnvVersion bool          // run CLAUDE_CODE_EXECUTABLE --version to report its version
	VersionTimeout  time.Duration // for --version probes; default 10s
}

// NoExecutableError says why no candidate was usable.
type NoExecutableError struct {
	Version string
	Notes   []string // one line per candidate that was found but rejected, or not found
}

func (e *NoExecutableError) Error() string {
	return fmt.Sprintf("no claude %s executable is available: %s. Run `baton provision`, or point CLAUDE_CODE_EXECUTABLE at a claude %s executable",
		e.Version, strings.Join(e.Notes, "; "), e.Version)
}

func (e *NoExecutableError) Is(target error) bool { return target == ErrNoExecutable }

// Select chooses the claude executable: CLAUDE_CODE_EXECUTABLE (as given) > the SDK's native package in the
// checkout BATON_DEV_TREE names > the provisioned executable > a claude on PATH. Each of the last three runs only
// if its sha256 is the manifest's (hashed once per file version, see verifyFile); nothing is looked for above the
// working directory or the executable, so a claude planted there never runs.
func Select(ctx context.Context, opts SelectOptions) (Selection, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if opts.VersionTimeout <= 0 {
		opts.VersionTimeout = 10 * time.Second
	}
	if v := getenv("CLAUDE_CODE_EXECUTABLE"); v != "" {
		return selectFromEnv(ctx, v, opts), nil
	}
	man := manifestOrPinned(opts.Manifest)
	plat, binary, err := targetArtifact(man, opts.Platform)
	if err != nil {
		return Selection{}, err
	}
	dataDir, dataErr := selectDataDir(opts.DataDir)
	if root := getenv(DevTreeEnv); root != "" {
		return selectDevTree(root, plat, binary, man, dataDir)
	}
	var notes []string
	if dataErr != nil {
		notes = append(notes, dataErr.Error())
	} else if sel, ok := selectProvisioned(binary, man, dataDir, &notes); ok {
		return sel, nil
	}
	sel, ok := selectFromPath(getenv("PATH"), binary, man, dataDir, &notes)
	if ok {
		return sel, nil
	}
	return Selection{}, &NoExecutableError{Version: man.Version, Notes: notes}
}

func targetArtifact(m Manifest, platformKey string) (Platform, Artifact, error) {
	var plat Platform
	var err error
	if platformKey != "" {
		plat, err = ParsePlatform(platformKey)
	} else {
		plat, err = CurrentPlatform()
	}
	if err != nil {
		return Platform{}, Artifact{}, err
	}
	a, err := m.Plain(plat)
	return plat, a, err
}

func selectFromEnv(ctx context.Context, path string, opts SelectOptions) Selection {
	sel := Selection{Path: path, Source: FromEnv}
	if _, err := os.Stat(path); err != nil {
		sel.Warning = fmt.Sprintf("CLAUDE_CODE_EXECUTABLE is %s, which cannot be used: %v", path, err)
		return sel
	}
	if opts.ProbeEnvVersion {
		v, err := ProbeVersion(ctx, path, opts.VersionTimeout)
		if err != nil {
			sel.Warning = err.Error()
		}
		sel.Version = v
	}
	if opts.VerifyChecksum {
		if _, a, err := targetArtifact(manifestOrPinned(opts.Manifest), opts.Platform); err == nil {
			dataDir, _ := selectDataDir(opts.DataDir)
			sel.Verified = verifyFile(path, a, verifiedDir(dataDir)) == nil
		}
	}
	return sel
}

func manifestOrPinned(m *Manifest) Manifest {
	if m != nil {
		return *m
	}
	return Pinned()
}

func selectDataDir(dataDir string) (string, error) {
	if dataDir != "" {
		return dataDir, nil
	}
	return platform.DataDir()
}

// verifiedDir is where verified.json lives for a data directory ("" when there is none: memory only).
func verifiedDir(dataDir string) string {
	if dataDir == "" {
		return ""
	}
	return newLayout(dataDir).root
}

func selectProvisioned(binary Artifact, m Manifest, dataDir string, notes *[]string) (Selection, bool) {
	exe := newLayout(dataDir).executable(m.Version, binary.Binary)
	if !ready(exe, binary) {
		*notes = append(*notes, fmt.Sprintf("claude %s is not installed in %s yet", m.Version, filepath.Dir(exe)))
		return Selection{}, false
	}
	// Only verified bytes are renamed into the version directory, but they may have been changed since.
	if err := verifyFile(exe, binary, verifiedDir(dataDir)); err != nil {
		*notes = append(*notes, fmt.Sprintf("the installed %s is damaged (%v); run `baton provision` to repair it", exe, err))
		return Selection{}, false
	}
	return Selection{Path: exe, Source: FromProvisioned, Version: m.Version, Verified: true}, true
}

func selectFromPath(pathEnv string, binary Artifact, m Manifest, dataDir string, notes *[]string) (Selection, bool) {
	exe := findExecutable("claude", pathEnv)
	if exe == "" {
		*notes = append(*notes, "there is no claude on PATH")
		return Selection{}, false
	}
	// Hashed before anything runs it, as every other candidate is: a claude on PATH that is not the pinned build
	// (another version, an npm wrapper, a planted file) is never run, not even for --version.
	if err := verifyFile(exe, binary, verifiedDir(dataDir)); err != nil {
		*notes = append(*notes, fmt.Sprintf("the claude on PATH (%s) is not the build Baton pins (%v)", exe, err))
		return Selection{}, false
	}
	return Selection{Path: exe, Source: FromPath, Version: m.Version, Verified: true,
		Warning: fmt.Sprintf("using the claude on PATH (%s, version %s)", exe, m.Version)}, true
}

func sameVersion(got, want string) bool {
	g, err1 := semver.NewVersion(got)
	w, err2 := semver.NewVersion(want)
	if err1 != nil || err2 != nil {
		return false
	}
	return g.Equal(w)
}
