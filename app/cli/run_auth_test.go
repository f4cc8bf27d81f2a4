package cli_test

import (
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// `baton run` checks the sign-in first (the real `claude auth status`, a temp home with no login and no
// ANTHROPIC_API_KEY): signed out, it fails at once with the sign-in hint. No sidecar starts and nothing reaches
// the API.
func TestRunFailsFastWhenSignedOut(t *testing.T) {
	h := newCLIHarness(t)
	h.withoutAPIKey()
	started := filepath.Join(t.TempDir(), "sidecar-started")
	h.env = append(h.env, "BATON_SIDECAR="+testenv.RecordingSidecarPath(t, started))

	r := h.run("run", "--json", "hello")
	require.Equal(t, 1, r.code, r.stderr)
	res := decodeResult(t, r.stdout)
	require.Equal(t, "auth", res.Detail)
	require.Contains(t, r.stderr, "baton: Signed out: Claude Code is not signed in. Sign in to continue.")
	require.Contains(t, r.stderr, "To sign in, run: CLAUDE_CONFIG_DIR=")
	require.Contains(t, r.stderr, " auth login")
	require.NoFileExists(t, started, "no sidecar starts for a run that cannot sign in")
	require.Zero(t, h.messageHits(0), "nothing reaches the API")

	r = h.run("run", "hello") // the transcript form says the same
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "[auth]")
	require.Contains(t, r.stderr, "baton: Signed out: ")
	require.NoFileExists(t, started)
}
