package provision

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
}

func TestRegistryDiscoveryOrder(t *testing.T) {
	home := t.TempDir()
	global := filepath.Join(t.TempDir(), "npmrc")
	writeFile(t, filepath.Join(home, ".npmrc"), "; user config\nregistry = http://127.0.0.1:4012/user/npm\n")
	writeFile(t, global, "registry=http://127.0.0.1:4005/global/\n")
	env := map[string]string{
		"BATON_NPM_REGISTRY":      "http://127.0.0.1:4000/baton/r",
		"NPM_CONFIG_REGISTRY":     "http://127.0.0.1:4011/upper/",
		"npm_config_registry":     "http://127.0.0.1:4007/lower/",
		"NPM_CONFIG_GLOBALCONFIG": global,
	}
	saved := BuildNPMRegistry
	BuildNPMRegistry = "http://127.0.0.1:4001/build/"
	t.Cleanup(func() { BuildNPMRegistry = saved })

	want := []struct{ url, from string }{
		{"http://127.0.0.1:4000/baton/r/", "BATON_NPM_REGISTRY"},
		{"http://127.0.0.1:4011/upper/", "NPM_CONFIG_REGISTRY"},
		{"http://127.0.0.1:4007/lower/", "npm_config_registry"},
		{"http://127.0.0.1:4012/user/npm/", filepath.Join(home, ".npmrc")},
		{"http://127.0.0.1:4005/global/", global},
		{"http://127.0.0.1:4001/build/", "build"},
	}
	for i, w := range want {
		r, err := DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(env), HomeDir: home, NPMCommand: "-"})
		require.NoError(t, err, "step %d", i)
		assert.Equal(t, w.url, r.URL, "step %d", i)
		assert.Equal(t, w.from, r.From, "step %d", i)
		// Remove the winning setting so the next one shows through.
		switch i {
		case 0:
			delete(env, "BATON_NPM_REGISTRY")
		case 1:
			delete(env, "NPM_CONFIG_REGISTRY")
		case 2:
			delete(env, "npm_config_registry")
		case 3:
			require.NoError(t, os.Remove(filepath.Join(home, ".npmrc")))
		case 4:
			require.NoError(t, os.Remove(global))
		}
	}
	BuildNPMRegistry = ""
	_, err := DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(env), HomeDir: home, NPMCommand: "-"})
	require.ErrorIs(t, err, ErrNoRegistry)
	assert.Contains(t, err.Error(), "BATON_NPM_REGISTRY")
}

func TestScopedRegistryAndTokenFromNPMRC(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".npmrc"), `registry=http://127.0.0.1:4003/everything/
@anthropic-ai:registry="http://127.0.0.1:4010/scoped/npm/private/"
//127.0.0.1:4010/scoped/npm/:_authToken=short
//127.0.0.1:4010/scoped/npm/private/:_authToken=${MY_TOKEN}
//127.0.0.1:4003/everything/:_authToken=other
`)
	r, err := DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(map[string]string{"MY_TOKEN": "s3cret"}), HomeDir: home, NPMCommand: "-"})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:4010/scoped/npm/private/", r.URL)
	assert.Equal(t, "s3cret", r.authToken, "the longest matching //host/path/ wins and ${VAR} is expanded")
	for _, format := range []string{"%v", "%+v", "%s"} {
		assert.NotContains(t, fmt.Sprintf(format, r), "s3cret", "a Registry must never print its token")
	}
	p, _ := ParsePlatform("linux-x64")
	assert.Equal(t, "http://127.0.0.1:4010/scoped/npm/private/@anthropic-ai/claude-agent-sdk-linux-x64/-/claude-agent-sdk-linux-x64-0.3.332.tgz",
		r.TarballURL(p, "0.3.332"))
}

func TestUserConfigEnvOverridesHomeNPMRC(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".npmrc"), "registry=http://127.0.0.1:4006/home/\n")
	other := filepath.Join(t.TempDir(), "custom-npmrc")
	writeFile(t, other, "registry=http://127.0.0.1:4002/custom/\n")
	r, err := DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(map[string]string{"NPM_CONFIG_USERCONFIG": other}), HomeDir: home, NPMCommand: "-"})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:4002/custom/", r.URL)
}

func TestGlobalNPMRCFromPrefix(t *testing.T) {
	prefix := t.TempDir()
	writeFile(t, filepath.Join(prefix, "etc", "npmrc"), "registry=http://127.0.0.1:4008/prefix/\n")
	r, err := DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(map[string]string{"NPM_CONFIG_PREFIX": prefix}), HomeDir: t.TempDir(), NPMCommand: "-"})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:4008/prefix/", r.URL)
}

func TestRegistryFromNPMCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in npm is a shell script")
	}
	// A stand-in for npm: what is under test is how Baton calls it and reads its answer.
	npm := filepath.Join(t.TempDir(), "npm")
	writeFile(t, npm, "#!/bin/sh\n[ \"$1 $2\" = \"config get\" ] || exit 1\necho '@anthropic-ai:registry=undefined'\necho 'registry=http://127.0.0.1:4004/from-npm/x'\n")
	require.NoError(t, os.Chmod(npm, 0o755))
	saved := BuildNPMRegistry
	BuildNPMRegistry = "http://127.0.0.1:4001/build/"
	t.Cleanup(func() { BuildNPMRegistry = saved })

	r, err := DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(nil), HomeDir: t.TempDir(), NPMCommand: npm})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:4004/from-npm/x/", r.URL)
	assert.Equal(t, "npm config", r.From)

	writeFile(t, npm, "#!/bin/sh\necho '@anthropic-ai:registry=http://127.0.0.1:4009/scope/'\necho 'registry=http://127.0.0.1:4004/from-npm/'\n")
	r, err = DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(nil), HomeDir: t.TempDir(), NPMCommand: npm})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:4009/scope/", r.URL)

	writeFile(t, npm, "#!/bin/sh\nexit 1\n")
	r, err = DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(nil), HomeDir: t.TempDir(), NPMCommand: npm})
	require.NoError(t, err)
	assert.Equal(t, "build", r.From, "a failing npm falls through to the build-time registry")
}

func TestUnusableRegistryIsAnError(t *testing.T) {
	for _, bad := range []string{"registry-without-scheme", "ftp://127.0.0.1:4013/x/", "http://"} {
		_, err := DiscoverRegistry(context.Background(), RegistryOptions{Getenv: envMap(map[string]string{"BATON_NPM_REGISTRY": bad}), HomeDir: t.TempDir(), NPMCommand: "-"})
		assert.ErrorContains(t, err, "BATON_NPM_REGISTRY", bad)
	}
}
