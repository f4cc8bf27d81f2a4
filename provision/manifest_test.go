package provision

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The carried manifest must be the vendored SDK's, byte for byte. After upgrading the SDK in sidecar/, run
//
//	BATON_UPDATE_PINNED=1 go test ./provision -run TestPinnedManifestMatchesVendoredSDK
//
// to copy the new files into provision/pinned/.

const vendoredSDK = "../sidecar/node_modules/@anthropic-ai/claude-agent-sdk"

func TestPinnedManifestMatchesVendoredSDK(t *testing.T) {
	if _, err := os.Stat(vendoredSDK); err != nil {
		t.Skipf("the vendored SDK is not installed (run npm ci in sidecar/): %v", err)
	}
	var pkg struct {
		Version           string `json:"version"`
		ClaudeCodeVersion string `json:"claudeCodeVersion"`
	}
	raw, err := os.ReadFile(filepath.Join(vendoredSDK, "package.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &pkg))

	if os.Getenv("BATON_UPDATE_PINNED") == "1" {
		for _, name := range []string{"manifest.json", "manifest.zst.json"} {
			b, err := os.ReadFile(filepath.Join(vendoredSDK, name))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join("pinned", name), b, 0o644))
		}
		require.NoError(t, os.WriteFile(filepath.Join("pinned", "sdk-version"), []byte(pkg.Version+"\n"), 0o644))
		t.Log("updated provision/pinned/; rebuild to embed it")
		return
	}
	for _, c := range []struct {
		name    string
		carried []byte
	}{{"manifest.json", pinnedManifestJSON}, {"manifest.zst.json", pinnedZstManifestJSON}} {
		vendored, err := os.ReadFile(filepath.Join(vendoredSDK, c.name))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(vendored, c.carried),
			"provision/pinned/%s differs from the vendored SDK's; run BATON_UPDATE_PINNED=1 go test ./provision -run TestPinnedManifestMatchesVendoredSDK", c.name)
	}
	m := Pinned()
	assert.Equal(t, pkg.Version, m.SDKVersion, "provision/pinned/sdk-version")
	assert.Equal(t, pkg.ClaudeCodeVersion, m.Version, "the SDK's claudeCodeVersion")
}

// sidecar/package.json is always in the tree, so the version pin is checked even without node_modules.
func TestPinnedSDKVersionMatchesSidecarDependency(t *testing.T) {
	raw, err := os.ReadFile("../sidecar/package.json")
	require.NoError(t, err)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(raw, &pkg))
	assert.Equal(t, Pinned().SDKVersion, pkg.Dependencies["@anthropic-ai/claude-agent-sdk"],
		"the sidecar must pin the exact SDK version whose manifest Baton carries")
}

func TestPinnedManifestCoversEveryPlatform(t *testing.T) {
	m := Pinned()
	for _, key := range []string{"darwin-arm64", "darwin-x64", "linux-arm64", "linux-x64", "linux-arm64-musl", "linux-x64-musl", "win32-x64", "win32-arm64"} {
		p, err := ParsePlatform(key)
		require.NoError(t, err)
		a, err := m.Plain(p)
		require.NoError(t, err, key)
		z, ok := m.Zst(p)
		require.True(t, ok, key)
		assert.Equal(t, a.Binary+".zst", z.Binary, key)
		assert.Less(t, z.Size, a.Size, key)
	}
	// Pinned returns a copy: a caller cannot change what the next caller sees.
	m.Platforms["linux-x64"] = Artifact{}
	assert.NotEqual(t, Artifact{}, Pinned().Platforms["linux-x64"])
}

func TestParseManifestRejectsWhatCouldWeakenVerification(t *testing.T) {
	good := func() map[string]any {
		return map[string]any{"version": "1.2.3", "platforms": map[string]any{
			"linux-x64": map[string]any{"binary": "claude", "checksum": sha([]byte("x")), "size": 1},
		}}
	}
	enc := func(v any) []byte { b, _ := json.Marshal(v); return b }
	_, err := ParseManifest(enc(good()), nil, "0.1.0")
	require.NoError(t, err)

	cases := map[string]func(m map[string]any){
		"short checksum":  func(m map[string]any) { plat(m)["checksum"] = "abc" },
		"upper-case hex":  func(m map[string]any) { plat(m)["checksum"] = sha(nil)[:60] + "ABCD" },
		"zero size":       func(m map[string]any) { plat(m)["size"] = 0 },
		"path in binary":  func(m map[string]any) { plat(m)["binary"] = "../claude" },
		"bad version":     func(m map[string]any) { m["version"] = "latest" },
		"no platforms":    func(m map[string]any) { m["platforms"] = map[string]any{} },
		"dotfile binary":  func(m map[string]any) { plat(m)["binary"] = ".claude" },
		"slash in binary": func(m map[string]any) { plat(m)["binary"] = "bin/claude" },
	}
	for name, mutate := range cases {
		m := good()
		mutate(m)
		_, err := ParseManifest(enc(m), nil, "0.1.0")
		assert.Error(t, err, name)
	}
	_, err = ParseManifest([]byte("{"), nil, "0.1.0")
	assert.ErrorContains(t, err, "manifest.json is not valid JSON")
	_, err = ParseManifest(enc(good()), nil, "next")
	assert.ErrorContains(t, err, "SDK version")

	zst := good()
	zst["version"] = "1.2.4"
	_, err = ParseManifest(enc(good()), enc(zst), "0.1.0")
	assert.ErrorContains(t, err, "manifest.zst.json is for claude 1.2.4")

	zst = good()
	zst["platforms"] = map[string]any{"win32-x64": plat(good())}
	_, err = ParseManifest(enc(good()), enc(zst), "0.1.0")
	assert.ErrorContains(t, err, `lists "win32-x64" but manifest.json does not`)
}

func plat(m map[string]any) map[string]any {
	return m["platforms"].(map[string]any)["linux-x64"].(map[string]any)
}
