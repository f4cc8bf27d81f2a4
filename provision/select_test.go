package provision

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// selectEnv is an isolated world for Select: nothing on PATH, no dev tree, an empty data directory.
type selectEnv struct {
	fx   fixture
	opts SelectOptions
	env  map[string]string
}

func newSelectEnv(t *testing.T) *selectEnv {
	if runtime.GOOS == "windows" {
		t.Skip("the fake claude executables are shell scripts")
	}
	fx := newFixture(t, 4096, false)
	m := fx.manifest
	e := &selectEnv{fx: fx, env: map[string]string{}}
	e.opts = SelectOptions{
		Manifest:   &m,
		Platform:   testPlatform,
		DataDir:    t.TempDir(),
		Getenv:     func(k string) string { return e.env[k] },
		Executable: filepath.Join(t.TempDir(), "bin", "baton"),
		WorkDir:    t.TempDir(),
	}
	return e
}

// script writes an executable shell script printing version for --version.
func script(t *testing.T, dir, name, version string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	writeFile(t, p, "#!/bin/sh\necho '"+version+" (Claude Code)'\n")
	require.NoError(t, os.Chmod(p, 0o755))
	return p
}

// devTree lays out <root>/sidecar/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/{claude,package.json}.
func devTree(t *testing.T, root, pkgVersion string, binary []byte) string {
	t.Helper()
	pkg := filepath.Join(root, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-"+testPlatform)
	writeFile(t, filepath.Join(pkg, "package.json"), `{"name":"@anthropic-ai/claude-agent-sdk-linux-x64","version":"`+pkgVersion+`"}`)
	writeFile(t, filepath.Join(pkg, "claude"), string(binary))
	require.NoError(t, os.Chmod(filepath.Join(pkg, "claude"), 0o755))
	return filepath.Join(pkg, "claude")
}

func (e *selectEnv) provision(t *testing.T, content []byte) string {
	t.Helper()
	p := newLayout(e.opts.DataDir).executable(testVersion, "claude")
	writeFile(t, p, string(content))
	require.NoError(t, os.Chmod(p, 0o755))
	return p
}

func TestSelectPrefersCLAUDE_CODE_EXECUTABLE(t *testing.T) {
	e := newSelectEnv(t)
	e.provision(t, e.fx.plain)
	custom := script(t, t.TempDir(), "my-claude", "1.0.0")
	e.env["CLAUDE_CODE_EXECUTABLE"] = custom
	e.opts.ProbeEnvVersion = true

	sel, err := Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, Selection{Path: custom, Source: FromEnv, Version: "1.0.0"}, sel, "used as given, even at another version")

	e.env["CLAUDE_CODE_EXECUTABLE"] = filepath.Join(t.TempDir(), "missing")
	sel, err = Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, FromEnv, sel.Source)
	assert.Contains(t, sel.Warning, "cannot be used")
}

func TestSelectDevTreeBesideTheExecutableOrWorkDir(t *testing.T) {
	e := newSelectEnv(t)
	e.provision(t, e.fx.plain)

	// The built binary lives in <repo>/build/bin/, reached through a symlink.
	repo := t.TempDir()
	want := devTree(t, repo, testSDKVersion, e.fx.plain)
	writeFile(t, filepath.Join(repo, "build", "bin", "baton"), "binary")
	link := filepath.Join(t.TempDir(), "baton")
	require.NoError(t, os.Symlink(filepath.Join(repo, "build", "bin", "baton"), link))
	e.opts.Executable = link
	sel, err := Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, Selection{Path: want, Source: FromSDKPackage, Version: testVersion}, sel)

	// From a working directory deep inside another checkout.
	repo2 := t.TempDir()
	want2 := devTree(t, repo2, testSDKVersion, e.fx.plain)
	e.opts.Executable = filepath.Join(t.TempDir(), "baton")
	e.opts.WorkDir = filepath.Join(repo2, "app", "cli")
	require.NoError(t, os.MkdirAll(e.opts.WorkDir, 0o755))
	e.opts.VerifyChecksum = true
	sel, err = Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, Selection{Path: want2, Source: FromSDKPackage, Version: testVersion, Verified: true}, sel)
}

func TestSelectSkipsADevTreeOfAnotherVersion(t *testing.T) {
	e := newSelectEnv(t)
	prov := e.provision(t, e.fx.plain)
	devTree(t, e.opts.WorkDir, "0.3.1", e.fx.plain)
	sel, err := Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, prov, sel.Path)

	wrongSize := t.TempDir()
	devTree(t, wrongSize, testSDKVersion, e.fx.plain[:100])
	e.opts.WorkDir = wrongSize
	sel, err = Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, Selection{Path: prov, Source: FromProvisioned, Version: testVersion, Verified: true}, sel)
}

func TestSelectProvisionedAndDamagedProvisioned(t *testing.T) {
	e := newSelectEnv(t)
	damaged := append([]byte(nil), e.fx.plain...)
	damaged[100] ^= 1
	e.provision(t, damaged) // right size: only hashing can tell

	sel, err := Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, FromProvisioned, sel.Source, "without VerifyChecksum only size and mode are checked")

	e.opts.VerifyChecksum = true
	_, err = Select(context.Background(), e.opts)
	require.ErrorIs(t, err, ErrNoExecutable)
	assert.Contains(t, err.Error(), "is damaged")
	assert.Contains(t, err.Error(), "baton provision --force")
}

func TestSelectPathClaudeWithMatchingVersion(t *testing.T) {
	e := newSelectEnv(t)
	bin := t.TempDir()
	claude := script(t, bin, "claude", testVersion)
	e.env["PATH"] = "relative/dir" + string(os.PathListSeparator) + bin

	sel, err := Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, claude, sel.Path)
	assert.Equal(t, FromPath, sel.Source)
	assert.Equal(t, testVersion, sel.Version)
	assert.False(t, sel.Verified)
	assert.Contains(t, sel.Warning, "not checksum-verified")

	// The genuine executable on PATH verifies when asked to.
	writeFile(t, claude, string(e.fx.plain))
	e.opts.VerifyChecksum = true
	sel, err = Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.True(t, sel.Verified)
	assert.NotContains(t, sel.Warning, "not checksum-verified")
}

func TestSelectPathClaudeWithMismatchingVersion(t *testing.T) {
	e := newSelectEnv(t)
	bin := t.TempDir()
	claude := script(t, bin, "claude", "9.9.10")
	e.env["PATH"] = bin

	_, err := Select(context.Background(), e.opts)
	require.ErrorIs(t, err, ErrNoExecutable)
	assert.Contains(t, err.Error(), "the claude on PATH ("+claude+") is version 9.9.10, but Baton needs exactly 9.9.9")
	assert.Contains(t, err.Error(), "not installed")
	assert.Contains(t, err.Error(), "baton provision")
}

func TestSelectNothingAvailable(t *testing.T) {
	e := newSelectEnv(t)
	_, err := Select(context.Background(), e.opts)
	require.ErrorIs(t, err, ErrNoExecutable)
	assert.Contains(t, err.Error(), "there is no claude on PATH")
	assert.Contains(t, err.Error(), "CLAUDE_CODE_EXECUTABLE")
}

func TestSameVersionIsSemantic(t *testing.T) {
	assert.True(t, sameVersion("2.1.332", "2.1.332"))
	assert.True(t, sameVersion("v2.1.332", "2.1.332"))
	assert.False(t, sameVersion("2.1.33", "2.1.332"))
	assert.False(t, sameVersion("2.1.332-beta", "2.1.332"))
	assert.False(t, sameVersion("garbage", "2.1.332"))
}

// The real vendored CLI, when present: Select finds it in this checkout and it reports the pinned version.
func TestSelectFindsTheVendoredCLIInThisCheckout(t *testing.T) {
	plat, err := CurrentPlatform()
	require.NoError(t, err)
	wd, err := os.Getwd()
	require.NoError(t, err)
	pkg := filepath.Join(filepath.Dir(wd), "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-"+plat.String())
	if _, err := os.Stat(pkg); err != nil {
		t.Skipf("the vendored native package is not installed: %v", err)
	}
	sel, err := Select(context.Background(), SelectOptions{Getenv: envMap(nil), DataDir: t.TempDir(), Executable: filepath.Join(t.TempDir(), "x")})
	require.NoError(t, err)
	assert.Equal(t, FromSDKPackage, sel.Source)
	assert.Equal(t, filepath.Join(pkg, "claude"), sel.Path)
	v, err := ProbeVersion(context.Background(), sel.Path, defaultTestTimeout)
	require.NoError(t, err)
	assert.Equal(t, Pinned().Version, v)
}

const defaultTestTimeout = 20 * time.Second // a generous bound, not a speed assertion
