package auth

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/testenv"
)

// On macOS the login is in the keychain, so the warning comes from asking the CLI without the key. Here the CLI
// reads the credentials file, so that route can be checked with the file check pointed at a missing file.
func TestShadowCheckByProbingWithoutTheKey(t *testing.T) {
	ctx := context.Background()
	home := testenv.NewHome(t)
	creds := filepath.Join(home, ".claude", ".credentials.json")
	require.NoError(t, os.WriteFile(creds, credentialsJSON(t, "max"), 0o600))
	req := probeRequest{Executable: testenv.RequireClaude(t), Env: probeEnv(home, envAPIKey+"="+fakeKey), Dir: home}
	st := runProbe(ctx, req)
	require.Equal(t, MethodAPIKey, st.Method, "%+v", st)

	missing := filepath.Join(home, "no-such-file.json")
	assert.True(t, keyShadowsSubscription(ctx, st, req, creds, false), "the file shows the subscription")
	assert.False(t, keyShadowsSubscription(ctx, st, req, missing, false), "no file and no keychain route: nothing seen")
	assert.True(t, keyShadowsSubscription(ctx, st, req, missing, true), "claude without the key reports the subscription")

	require.NoError(t, os.Remove(creds))
	assert.False(t, keyShadowsSubscription(ctx, st, req, missing, true), "no subscription is stored at all")

	noKey := probeRequest{Executable: req.Executable, Env: probeEnv(home), Dir: home}
	assert.False(t, keyShadowsSubscription(ctx, runProbe(ctx, noKey), noKey, creds, true), "no key, nothing shadowed")
}

func TestCredentialsHoldSubscription(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	assert.True(t, credentialsHoldSubscription(write("a", `{"claudeAiOauth":{"accessToken":"x"}}`)))
	assert.False(t, credentialsHoldSubscription(write("b", `{"claudeAiOauth":null}`)))
	assert.False(t, credentialsHoldSubscription(write("c", `{"hybridOauth":{}}`)))
	assert.False(t, credentialsHoldSubscription(write("d", `not json`)))
	assert.False(t, credentialsHoldSubscription(filepath.Join(dir, "missing")))
}
