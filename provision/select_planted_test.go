package provision

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plantClaude lays out a planted dev tree under root: the SDK's package.json at the pinned SDK version and a
// claude that is a tiny script, sparse-padded to the manifest's size, which creates marker when it runs.
func plantClaude(t *testing.T, root string, m Manifest, marker string) string {
	t.Helper()
	a, err := m.Plain(Platform{OS: "linux", Arch: "x64"})
	require.NoError(t, err)
	pkg := filepath.Join(root, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-"+testPlatform)
	writeFile(t, filepath.Join(pkg, "package.json"), `{"name":"@anthropic-ai/claude-agent-sdk-linux-x64","version":"`+m.SDKVersion+`"}`)
	exe := filepath.Join(pkg, a.Binary)
	f, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	require.NoError(t, err)
	_, err = f.WriteString("#!/bin/sh\ntouch '" + marker + "'\necho '" + m.Version + " (Claude Code)'\nexit 0\n")
	require.NoError(t, err)
	require.NoError(t, f.Truncate(a.Size)) // sparse: the right size, none of the right bytes
	require.NoError(t, f.Close())
	return exe
}

// A claude planted in any folder above the working directory is never chosen: no dev tree was asked for, so the
// verified, provisioned copy runs. (Beside the executable: app/cli's TestExecAndDoctorNeverRunAPlantedClaude.)
func TestSelectIgnoresAPlantedClaudeAboveTheWorkDir(t *testing.T) {
	e := newSelectEnv(t)
	prov := e.provision(t, e.fx.plain)
	marker := filepath.Join(t.TempDir(), "planted-claude-ran")

	above := t.TempDir()
	planted := plantClaude(t, above, *e.opts.Manifest, marker)
	deep := filepath.Join(above, "projects", "app", "src")
	require.NoError(t, os.MkdirAll(deep, 0o755))
	t.Chdir(deep)
	// The real environment's working directory; only the manifest, data dir and variables are the test's.
	opts := SelectOptions{Manifest: e.opts.Manifest, Platform: e.opts.Platform, DataDir: e.opts.DataDir, Getenv: e.opts.Getenv}

	for _, verify := range []bool{false, true} {
		opts.VerifyChecksum = verify // doctor verifies; sessions do not ask: the choice must be the same
		sel, err := Select(context.Background(), opts)
		require.NoError(t, err)
		assert.NotEqual(t, planted, sel.Path)
		assert.Equal(t, Selection{Path: prov, Source: FromProvisioned, Version: testVersion, Verified: true}, sel)
	}
	assert.NoFileExists(t, marker, "the planted claude ran")
}
