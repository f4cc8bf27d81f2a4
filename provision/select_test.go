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
		Manifest: &m,
		Platform: testPlatform,
		DataDir:  t.TempDir(),
		Getenv:   func(k string) string { return e.env[k] },
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

func TestSelectDevTreeOnlyWhenAskedFor(t *testing.T) {
	e := newSelectEnv(t)
	prov := e.provision(t, e.fx.plain)
	repo := t.TempDir()
	want := devTree(t, repo, testSDKVersion, e.fx.plain)

	sel, err := Select(context.Background(), e.opts)
	require.NoError(t, err)
	assert.Equal(t, prov, sel.Path, "no BATON_DEV_TREE: the dev tree is not looked for")

	e.env[DevTreeEnv] = repo
	for _, verify := range []bool{false, true} {
		e.opts.VerifyChecksum = verify
		sel, err = Select(context.Background(), e.opts)
		require.NoError(t, err)
		assert.Equal(t, Selection{Path: want, Source: FromSDKPackage, Version: testVersion, Verified: true}, sel)
	}
}

// A dev tree that was asked for but is not the pinned claude stops selection with what to do; another claude is
// not run in its place.
func TestSelectRefusesABadDevTree(t *testing.T) {
	e := newSelectEnv(t)
	e.provision(t, e.fx.plain)
	sameSize := append([]byte(nil), e.fx.plain...)
	sameSize[len(sameSize)/2] ^= 1
	for name, tc := range map[string]struct {
		pkgVersion string
		binary     []byte
		want       string
	}{
		"wrong hash":    {testSDKVersion, sameSize, "does not match the pinned claude " + testVersion + ": checksum mismatch"},
		"wrong size":    {testSDKVersion, e.fx.plain[:100], "is 100 bytes, not the manifest's 4096"},
		"other version": {"0.3.1", e.fx.plain, `SDK version "0.3.1", not the pinned ` + testSDKVersion},
	} {
		t.Run(name, func(t *testing.T) {
			repo := t.TempDir()
			exe := devTree(t, repo, tc.pkgVersion, tc.binary)
			e.env[DevTreeEnv] = repo
			_, err := Select(context.Background(), e.opts)
			var dte *DevTreeError
			require.ErrorAs(t, err, &dte)
			assert.Contains(t, err.Error(), "refusing to run "+exe)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "unset BATON_DEV_TREE")
			assert.NotErrorIs(t, err, ErrNoExecutable, "not a reason to download: the dev tree was asked for")
		})
	}

	e.env[DevTreeEnv] = "relative/checkout"
	_, err := Select(context.Background(), e.opts)
	require.ErrorContains(t, err, "not an absolute path")
}

func TestSelectProvisionedAndDamagedProvisioned(t *testing.T) {
	e := newSelectEnv(t)
	damaged := append([]byte(nil), e.fx.plain...)
	damaged[100] ^= 1
	e.provision(t, damaged) // right size: only hashing can tell

	for _, verify := range []bool{false, true} {
		e.opts.VerifyChecksum = verify // sessions and doctor alike refuse it
		_, err := Select(context.Background(), e.opts)
		require.ErrorIs(t, err, ErrNoExecutable)
		assert.Contains(t, err.Error(), "is damaged")
		assert.Contains(t, err.Error(), "run `baton provision` to repair it")
	}
}

// A claude on PATH is used only when it is the pinned build, hashed before anything runs it: a script that says
// the right version (an npm wrapper, a planted file) is refused without being run, and so is another version.
func TestSelectPathClaudeOnlyWhenItIsThePinnedBuild(t *testing.T) {
	e := newSelectEnv(t)
	bin := t.TempDir()
	ran := filepath.Join(t.TempDir(), "ran")
	claude := filepath.Join(bin, "claude")
	writeFile(t, claude, "#!/bin/sh\ntouch '"+ran+"'\necho '"+testVersion+" (Claude Code)'\n")
	require.NoError(t, os.Chmod(claude, 0o755))
	e.env["PATH"] = "relative/dir" + string(os.PathListSeparator) + bin

	for _, verify := range []bool{false, true} {
		e.opts.VerifyChecksum = verify // sessions and doctor alike
		_, err := Select(context.Background(), e.opts)
		require.ErrorIs(t, err, ErrNoExecutable)
		assert.Contains(t, err.Error(), "the claude on PATH ("+claude+") is not the build Baton pins")
		assert.Contains(t, err.Error(), "baton provision")
		assert.NoFileExists(t, ran, "a claude on PATH that is not the pinned build never runs")
	}

	// The genuine executable on PATH is used, verified, whether or not doctor asks.
	writeFile(t, claude, string(e.fx.plain))
	for _, verify := range []bool{false, true} {
		e.opts.VerifyChecksum = verify
		sel, err := Select(context.Background(), e.opts)
		require.NoError(t, err)
		assert.Equal(t, claude, sel.Path)
		assert.Equal(t, FromPath, sel.Source)
		assert.Equal(t, testVersion, sel.Version)
		assert.True(t, sel.Verified)
	}
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

// The real vendored CLI, when present: named by BATON_DEV_TREE it verifies and reports the pinned version.
func TestSelectFindsTheVendoredCLIInThisCheckout(t *testing.T) {
	plat, err := CurrentPlatform()
	require.NoError(t, err)
	wd, err := os.Getwd()
	require.NoError(t, err)
	root := filepath.Dir(wd)
	pkg := filepath.Join(root, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-"+plat.String())
	if _, err := os.Stat(pkg); err != nil {
		t.Skipf("the vendored native package is not installed: %v", err)
	}
	sel, err := Select(context.Background(), SelectOptions{Getenv: envMap(map[string]string{DevTreeEnv: root}), DataDir: t.TempDir()})
	require.NoError(t, err)
	assert.Equal(t, FromSDKPackage, sel.Source)
	assert.True(t, sel.Verified)
	assert.Equal(t, filepath.Join(pkg, "claude"), sel.Path)
	v, err := ProbeVersion(context.Background(), sel.Path, defaultTestTimeout)
	require.NoError(t, err)
	assert.Equal(t, Pinned().Version, v)
}

const defaultTestTimeout = 20 * time.Second // a generous bound, not a speed assertion
