package provision

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// DevTreeEnv names a Baton checkout whose sidecar/node_modules holds the SDK's native claude package. Only a dev
// setup sets it (scripts/run, tests): Baton never searches for such a folder, above the working directory or the
// executable, because a claude planted in any of those folders would then run.
const DevTreeEnv = "BATON_DEV_TREE"

// DevTreeError is a BATON_DEV_TREE whose claude cannot be used. Selection stops there rather than quietly running
// another claude than the one asked for.
type DevTreeError struct {
	Root   string
	Path   string // the claude looked at ("" when Root itself is unusable)
	Reason string
}

func (e *DevTreeError) Error() string {
	at := e.Root
	if e.Path != "" {
		at = e.Path
	}
	return fmt.Sprintf("%s=%s: refusing to run %s: %s. Run scripts/setup in that checkout (npm ci in sidecar/), or unset %s to use the provisioned claude",
		DevTreeEnv, e.Root, at, e.Reason, DevTreeEnv)
}

// selectDevTree takes <root>/sidecar/node_modules/@anthropic-ai/claude-agent-sdk-<platform>/<binary>, which must
// be the pinned SDK's package and the manifest's exact bytes.
func selectDevTree(root string, plat Platform, binary Artifact, m Manifest, dataDir string) (Selection, error) {
	if !filepath.IsAbs(root) {
		// A relative folder would be found from the working directory: the very thing this guards against.
		return Selection{}, &DevTreeError{Root: root, Reason: "it is not an absolute path"}
	}
	pkg := filepath.Join(root, "sidecar", "node_modules", npmScope, "claude-agent-sdk-"+plat.String())
	exe := filepath.Join(pkg, binary.Binary)
	var meta struct {
		Version string `json:"version"`
	}
	if b, err := readSmallFile(filepath.Join(pkg, "package.json"), 64<<10); err != nil {
		return Selection{}, &DevTreeError{Root: root, Path: exe, Reason: fmt.Sprintf("its package.json cannot be read (%v)", err)}
	} else if err := json.Unmarshal(b, &meta); err != nil || meta.Version != m.SDKVersion {
		return Selection{}, &DevTreeError{Root: root, Path: exe,
			Reason: fmt.Sprintf("its package is SDK version %q, not the pinned %s", meta.Version, m.SDKVersion)}
	}
	if err := verifyFile(exe, binary, verifiedDir(dataDir)); err != nil {
		return Selection{}, &DevTreeError{Root: root, Path: exe, Reason: fmt.Sprintf("it does not match the pinned claude %s: %v", m.Version, err)}
	}
	return Selection{Path: exe, Source: FromSDKPackage, Version: m.Version, Verified: true}, nil
}

// readSmallFile reads a file that must be small (a package.json), refusing one larger than limit.
func readSmallFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("it is larger than %d bytes", limit)
	}
	return b, nil
}
