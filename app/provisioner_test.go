package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/provision"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// A start that finds claude installed asks for no second sign-in probe: the watcher's own first probe finds it
// the same way. Every start used to run `claude auth status` twice (issue 26's build shared the two cores with
// both). Only a run that installs claude hands over to afterReady.
func TestProvisioningThatFindsClaudeAsksForNoSecondSignInProbe(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "claude")
	script := "#!/bin/sh\necho '" + provision.Pinned().Version + " (Claude Code)'\n"
	require.NoError(t, os.WriteFile(exe, []byte(script), 0o755))
	t.Setenv("CLAUDE_CODE_EXECUTABLE", exe)
	state := console.NewHostState()
	p := newProvisioner(state, zerolog.Nop())
	t.Cleanup(p.close)
	p.afterReady(func() { t.Error("a second sign-in probe was asked for") })

	require.False(t, p.runOnce(), "claude was there: nothing to hand over")
	require.Equal(t, console.ProvisionStatusReady, state.Provision().State)
	require.Equal(t, exe, state.Provision().Path)

	path, installed, err := p.resolver.resolveInstalling(t.Context())
	require.NoError(t, err)
	require.Equal(t, exe, path)
	require.False(t, installed)
}
