// Package provision fetches, verifies and installs the exact claude executable the vendored Agent SDK was built
// for, and chooses which claude executable Baton runs.
package provision

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"strings"
)

// The carried copies of the vendored SDK's manifests: the Go host and the sidecar must agree on one version.
// manifest_test.go fails when they drift from sidecar/node_modules.

//go:embed pinned/manifest.json
var pinnedManifestJSON []byte

//go:embed pinned/manifest.zst.json
var pinnedZstManifestJSON []byte

//go:embed pinned/sdk-version
var pinnedSDKVersion string

// Artifact is one downloadable file named by a manifest: its file name, sha256 (hex) and exact size.
type Artifact struct {
	Binary   string `json:"binary"`
	Checksum string `json:"checksum"`
	Size     int64  `json:"size"`
}

// Manifest is the pinned release: the claude CLI version, the SDK version that names the npm packages, and the
// artifacts per platform key ("linux-x64", "darwin-arm64", "linux-x64-musl", …).
type Manifest struct {
	Version    string              // the claude CLI version, e.g. 2.1.332
	SDKVersion string              // the npm version of @anthropic-ai/claude-agent-sdk and its platform packages
	Commit     string              // the CLI's source commit, for reports
	Platforms  map[string]Artifact // plain executables (manifest.json)
	Compressed map[string]Artifact // zstd artifacts (manifest.zst.json); may be empty
}

// manifestFile is the on-disk layout shared by manifest.json and manifest.zst.json; other fields are ignored.
type manifestFile struct {
	Version   string              `json:"version"`
	Commit    string              `json:"commit"`
	Platforms map[string]Artifact `json:"platforms"`
}

var (
	sha256Hex     = regexp.MustCompile(`^[0-9a-f]{64}$`)
	plainSemver   = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)
	safeFileName  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	pinned        Manifest
	pinnedLoadErr error
)

func init() {
	pinned, pinnedLoadErr = ParseManifest(pinnedManifestJSON, pinnedZstManifestJSON, pinnedSDKVersion)
}

// Pinned returns the manifest embedded at build time. It panics if the embedded files are invalid, which a unit
// test rules out before any build ships.
func Pinned() Manifest {
	if pinnedLoadErr != nil {
		panic(fmt.Sprintf("provision: embedded manifest is invalid: %v", pinnedLoadErr))
	}
	return pinned.clone()
}

// ParseManifest reads manifest.json and (optionally empty) manifest.zst.json and checks every field Baton relies on,
// so a malformed manifest can never lead to an unverified install.
func ParseManifest(plain, zst []byte, sdkVersion string) (Manifest, error) {
	var pf manifestFile
	if err := json.Unmarshal(plain, &pf); err != nil {
		return Manifest{}, fmt.Errorf("manifest.json is not valid JSON: %w", err)
	}
	m := Manifest{
		Version:    pf.Version,
		SDKVersion: strings.TrimSpace(sdkVersion),
		Commit:     pf.Commit,
		Platforms:  pf.Platforms,
		Compressed: map[string]Artifact{},
	}
	if len(zst) > 0 {
		var zf manifestFile
		if err := json.Unmarshal(zst, &zf); err != nil {
			return Manifest{}, fmt.Errorf("manifest.zst.json is not valid JSON: %w", err)
		}
		if zf.Version != pf.Version {
			return Manifest{}, fmt.Errorf("manifest.zst.json is for claude %s but manifest.json is for %s", zf.Version, pf.Version)
		}
		m.Compressed = zf.Platforms
	}
	if err := m.Validate(); err != nil {
		return Manifest{}, err
	}
	return m, nil
}

// Validate checks versions, checksums, sizes and file names (they become URL path segments and file names).
func (m Manifest) Validate() error {
	if !plainSemver.MatchString(m.Version) {
		return fmt.Errorf("manifest version %q is not a semantic version", m.Version)
	}
	if !plainSemver.MatchString(m.SDKVersion) {
		return fmt.Errorf("SDK version %q is not a semantic version", m.SDKVersion)
	}
	if len(m.Platforms) == 0 {
		return fmt.Errorf("manifest for claude %s lists no platforms", m.Version)
	}
	for kind, set := range map[string]map[string]Artifact{"manifest.json": m.Platforms, "manifest.zst.json": m.Compressed} {
		for plat, a := range set {
			if err := a.validate(); err != nil {
				return fmt.Errorf("%s entry %q: %w", kind, plat, err)
			}
		}
	}
	for plat := range m.Compressed {
		if _, ok := m.Platforms[plat]; !ok {
			return fmt.Errorf("manifest.zst.json lists %q but manifest.json does not", plat)
		}
	}
	return nil
}

func (a Artifact) validate() error {
	if !safeFileName.MatchString(a.Binary) {
		return fmt.Errorf("file name %q is not a plain file name", a.Binary)
	}
	if !sha256Hex.MatchString(a.Checksum) {
		return fmt.Errorf("checksum %q is not a lowercase sha256 hex digest", a.Checksum)
	}
	if a.Size <= 0 {
		return fmt.Errorf("size %d is not positive", a.Size)
	}
	return nil
}

// Plain returns the executable artifact for a platform.
func (m Manifest) Plain(p Platform) (Artifact, error) {
	a, ok := m.Platforms[p.String()]
	if !ok {
		return Artifact{}, fmt.Errorf("claude %s is not published for %s", m.Version, p)
	}
	return a, nil
}

// Zst returns the zstd artifact for a platform, when the manifest lists one.
func (m Manifest) Zst(p Platform) (Artifact, bool) {
	a, ok := m.Compressed[p.String()]
	return a, ok
}

func (m Manifest) clone() Manifest {
	c := m
	c.Platforms = maps.Clone(m.Platforms)
	c.Compressed = maps.Clone(m.Compressed)
	return c
}
