package provision

import (
	"context"
	"encoding/json"
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
	FromPath        = "path"        // a claude on PATH whose --version matches
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
	Manifest   *Manifest           // default Pinned()
	Platform   string              // default CurrentPlatform()
	DataDir    string              // default platform.DataDir()
	Getenv     func(string) string // default os.Getenv; reads CLAUDE_CODE_EXECUTABLE and PATH
	Executable string              // default os.Executable(); the dev-tree walk starts beside it
	WorkDir    string              // default os.Getwd(); the dev-tree walk also starts here

	VerifyChecksum  bool          // hash the chosen file against the manifest (slow: ~400 MB); doctor sets it
	ProbeEnvVersion bool          // run CLAUDE_CODE_EXECUTABLE --version to report its version
	VersionTimeout  time.Duration // for --version probes; default 10s
}

// VersionMismatchError is a claude on PATH whose version is not the pinned one.
type VersionMismatchError struct {
	Path, Got, Want string
}

func (e *VersionMismatchError) Error() string {
	return fmt.Sprintf("the claude on PATH (%s) is version %s, but Baton needs exactly %s", e.Path, e.Got, e.Want)
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

// Select chooses the claude executable: CLAUDE_CODE_EXECUTABLE (as given) > the SDK's native package in a dev
// tree > the provisioned executable > a claude on PATH whose --version equals the manifest's (with a warning).
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
	var notes []string
	if sel, ok := selectDevTree(plat, binary, man, opts, &notes); ok {
		return sel, nil
	}
	if sel, ok := selectProvisioned(binary, man, opts, &notes); ok {
		return sel, nil
	}
	sel, ok := selectFromPath(ctx, getenv("PATH"), binary, man, opts, &notes)
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
			sel.Verified = matchesArtifact(path, a) == nil
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

// selectDevTree looks for sidecar/node_modules/@anthropic-ai/claude-agent-sdk-<platform>/<binary> in every
// directory above the running executable and above the working directory. The package must be the pinned SDK
// version and the file the manifest's size, so another project's node_modules is never picked up.
func selectDevTree(plat Platform, binary Artifact, m Manifest, opts SelectOptions, notes *[]string) (Selection, bool) {
	var starts []string
	exe := opts.Executable
	if exe == "" {
		exe, _ = os.Executable()
	}
	if exe != "" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		starts = append(starts, filepath.Dir(exe))
	}
	wd := opts.WorkDir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	if wd != "" {
		starts = append(starts, wd)
	}
	pkgRel := filepath.Join("sidecar", "node_modules", npmScope, "claude-agent-sdk-"+plat.String())
	seen := map[string]bool{}
	for _, start := range starts {
		for dir := filepath.Clean(start); ; dir = filepath.Dir(dir) {
			pkg := filepath.Join(dir, pkgRel)
			if !seen[pkg] {
				seen[pkg] = true
				if sel, ok := checkDevPackage(pkg, binary, m, opts, notes); ok {
					return sel, true
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return Selection{}, false
}

func checkDevPackage(pkg string, binary Artifact, m Manifest, opts SelectOptions, notes *[]string) (Selection, bool) {
	exe := filepath.Join(pkg, binary.Binary)
	info, err := os.Stat(exe)
	if err != nil {
		return Selection{}, false
	}
	var meta struct {
		Version string `json:"version"`
	}
	if b, err := os.ReadFile(filepath.Join(pkg, "package.json")); err == nil {
		_ = json.Unmarshal(b, &meta)
	}
	switch {
	case meta.Version != m.SDKVersion:
		*notes = append(*notes, fmt.Sprintf("%s is SDK package version %q, not %s", exe, meta.Version, m.SDKVersion))
		return Selection{}, false
	case info.Size() != binary.Size:
		*notes = append(*notes, fmt.Sprintf("%s is %d bytes, not the manifest's %d", exe, info.Size(), binary.Size))
		return Selection{}, false
	}
	sel := Selection{Path: exe, Source: FromSDKPackage, Version: m.Version}
	if opts.VerifyChecksum {
		if err := matchesArtifact(exe, binary); err != nil {
			*notes = append(*notes, fmt.Sprintf("%s: %v", exe, err))
			return Selection{}, false
		}
		sel.Verified = true
	}
	return sel, true
}

func selectProvisioned(binary Artifact, m Manifest, opts SelectOptions, notes *[]string) (Selection, bool) {
	dataDir := opts.DataDir
	if dataDir == "" {
		d, err := platform.DataDir()
		if err != nil {
			*notes = append(*notes, err.Error())
			return Selection{}, false
		}
		dataDir = d
	}
	exe := newLayout(dataDir).executable(m.Version, binary.Binary)
	if !ready(exe, binary) {
		*notes = append(*notes, fmt.Sprintf("claude %s is not installed in %s yet", m.Version, filepath.Dir(exe)))
		return Selection{}, false
	}
	if opts.VerifyChecksum {
		if err := matchesArtifact(exe, binary); err != nil {
			*notes = append(*notes, fmt.Sprintf("the installed %s is damaged (%v); run `baton provision --force`", exe, err))
			return Selection{}, false
		}
	}
	// Only verified bytes are ever renamed into the version directory.
	return Selection{Path: exe, Source: FromProvisioned, Version: m.Version, Verified: true}, true
}

func selectFromPath(ctx context.Context, pathEnv string, binary Artifact, m Manifest, opts SelectOptions, notes *[]string) (Selection, bool) {
	exe := findExecutable("claude", pathEnv)
	if exe == "" {
		*notes = append(*notes, "there is no claude on PATH")
		return Selection{}, false
	}
	got, err := ProbeVersion(ctx, exe, opts.VersionTimeout)
	if err != nil {
		*notes = append(*notes, err.Error())
		return Selection{}, false
	}
	if !sameVersion(got, m.Version) {
		*notes = append(*notes, (&VersionMismatchError{Path: exe, Got: got, Want: m.Version}).Error())
		return Selection{}, false
	}
	sel := Selection{Path: exe, Source: FromPath, Version: got,
		Warning: fmt.Sprintf("using the claude on PATH (%s, version %s); it was not checksum-verified. Run `baton provision` to install a verified copy", exe, got)}
	if opts.VerifyChecksum && matchesArtifact(exe, binary) == nil {
		sel.Verified = true
		sel.Warning = fmt.Sprintf("using the claude on PATH (%s, version %s)", exe, got)
	}
	return sel, true
}

func sameVersion(got, want string) bool {
	g, err1 := semver.NewVersion(got)
	w, err2 := semver.NewVersion(want)
	if err1 != nil || err2 != nil {
		return false
	}
	return g.Equal(w)
}

// matchesArtifact checks a file's exact size and sha256 against the manifest.
func matchesArtifact(path string, a Artifact) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if info.Size() != a.Size {
		return &SizeError{Expected: a.Size, Got: info.Size()}
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return err
	}
	if sum != a.Checksum {
		return &ChecksumError{Expected: a.Checksum, Got: sum}
	}
	return nil
}
