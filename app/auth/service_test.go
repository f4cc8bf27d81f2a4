package auth

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// liveBound is the 2 s bound for noticing a sign-in change, with slack for a loaded 2-core machine.
const liveBound = 5 * time.Second

func TestSignedOutWithABareConfigDir(t *testing.T) {
	h := startHarness(t, harnessOptions{})
	st := h.firstProbe(t)

	assert.Equal(t, StatusSignedOut, st.Status, "a bare ~/.claude is never signed in: %+v", st)
	assert.False(t, st.SignedIn())
	assert.Empty(t, st.Method)
	assert.Equal(t, "Not signed in", st.Summary)
	assert.NotEmpty(t, st.Reason)
	assert.Equal(t, h.cfg, st.ConfigDir)
	assert.Contains(t, st.SignInCommand, "auth login")
	assert.Contains(t, st.SignInCommand, "CLAUDE_CONFIG_DIR=", "the copied command must sign in where Baton looks")
	assert.Equal(t, st, h.svc.State())
}

func TestAPIKeyFromTheEnvironmentIsAnAPIKeySignIn(t *testing.T) {
	h := startHarness(t, harnessOptions{extraEnv: []string{envAPIKey + "=" + fakeKey}})
	st := h.firstProbe(t)

	assert.Equal(t, StatusSignedIn, st.Status)
	assert.Equal(t, MethodAPIKey, st.Method)
	assert.Equal(t, envAPIKey, st.KeySource)
	assert.Equal(t, "firstParty", st.Provider)
	assert.Equal(t, "Using an API key from ANTHROPIC_API_KEY", st.Summary)
	assert.False(t, st.HasWarning(WarningKeyShadowsSubscription), "no subscription is stored")
	assert.NotContains(t, stateJSON(t, st), fakeKey)
	assert.NotContains(t, h.logs.String(), fakeKey)
	assert.Contains(t, h.logs.String(), `"status":"signed_in"`, "the log is captured, so the check above means something")
}

func TestCredentialsWrittenAndRemovedWhileRunning(t *testing.T) {
	h := startHarness(t, harnessOptions{})
	require.Equal(t, StatusSignedOut, h.firstProbe(t).Status)

	creds := filepath.Join(h.cfg, ".credentials.json")
	require.NoError(t, os.WriteFile(creds, credentialsJSON(t, "max"), 0o600))
	st := h.await(t, "sign-in from a new credentials file", liveBound, subscription("max"))
	assert.Equal(t, StatusSignedIn, st.Status)
	assert.Equal(t, "Signed in with a Claude Max subscription", st.Summary)
	assert.Equal(t, "max_other", st.PlanTier)
	js := stateJSON(t, st)
	assert.NotContains(t, js, fakeAccessToken)
	assert.NotContains(t, js, fakeRefreshToken)

	require.NoError(t, os.Remove(creds))
	h.await(t, "sign-out after the credentials file was removed", liveBound, signedOut)
	logs := h.logs.String()
	assert.NotContains(t, logs, fakeAccessToken)
	assert.NotContains(t, logs, fakeRefreshToken)
}

func TestRewriteByRenameIsNoticed(t *testing.T) {
	h := startHarness(t, harnessOptions{})
	creds := filepath.Join(h.cfg, ".credentials.json")
	require.NoError(t, os.WriteFile(creds, credentialsJSON(t, "pro"), 0o600))
	h.await(t, "the pro login", 30*time.Second, subscription("pro"))

	writeAtomic(t, creds, credentialsJSON(t, "max"))
	h.await(t, "the max login written by rename", liveBound, subscription("max"))
	writeAtomic(t, creds, credentialsJSON(t, "pro"))
	h.await(t, "a second rename (the watch survived the first)", liveBound, subscription("pro"))
}

func TestConfigDirCreatedAfterStartIsNoticed(t *testing.T) {
	h := startHarness(t, harnessOptions{configDir: filepath.Join("later", "deeper", "claude-config")})
	_, err := os.Stat(filepath.Join(h.home, "later"))
	require.ErrorIs(t, err, os.ErrNotExist, "nothing of the config dir exists before Start")
	// The CLI's own first run makes the directory; the test then takes it away to make it again itself.
	require.Equal(t, StatusSignedOut, h.firstProbe(t).Status)
	require.NoError(t, os.RemoveAll(filepath.Join(h.home, "later")))

	require.NoError(t, os.MkdirAll(h.cfg, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(h.cfg, ".credentials.json"), credentialsJSON(t, "max"), 0o600))
	h.await(t, "sign-in in a config dir made after start", liveBound, subscription("max"))
}

func TestPollingFallbackNoticesChanges(t *testing.T) {
	h := startHarness(t, harnessOptions{noNotify: true})
	require.Equal(t, StatusSignedOut, h.firstProbe(t).Status)
	require.Contains(t, h.logs.String(), "watching sign-in files")

	writeAtomic(t, filepath.Join(h.cfg, ".credentials.json"), credentialsJSON(t, "max"))
	h.await(t, "sign-in seen by polling alone", liveBound, subscription("max"))
}

func TestAPIKeyShadowingASubscriptionIsWarned(t *testing.T) {
	h := startHarness(t, harnessOptions{extraEnv: []string{envAPIKey + "=" + fakeKey}})
	st := h.firstProbe(t)
	require.Equal(t, MethodAPIKey, st.Method)
	assert.False(t, st.HasWarning(WarningKeyShadowsSubscription), "no subscription yet")

	require.NoError(t, os.WriteFile(filepath.Join(h.cfg, ".credentials.json"), credentialsJSON(t, "max"), 0o600))
	st = h.await(t, "the shadow warning", liveBound, func(s State) bool { return s.HasWarning(WarningKeyShadowsSubscription) })
	assert.Equal(t, MethodAPIKey, st.Method, "the CLI uses the key over the stored subscription")
	assert.Contains(t, st.Warnings[0].Message, "ANTHROPIC_API_KEY")
	js := stateJSON(t, st)
	for _, secret := range []string{fakeKey, fakeAccessToken, fakeRefreshToken} {
		assert.NotContains(t, js, secret)
		assert.NotContains(t, h.logs.String(), secret)
	}
}

func TestRefreshAndClose(t *testing.T) {
	h := startHarness(t, harnessOptions{})
	first := h.firstProbe(t)
	st, err := h.svc.Refresh(context.Background())
	require.NoError(t, err)
	assert.Equal(t, first.Status, st.Status)
	assert.True(t, st.CheckedAt.After(first.CheckedAt))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = h.svc.Refresh(ctx)
	require.ErrorIs(t, err, context.Canceled)

	h.svc.Close()
	_, open := <-h.updates
	assert.False(t, open, "Close closes subscriptions")
	assert.Error(t, h.svc.Start(context.Background()), "a closed service does not restart")
	h.svc.Close() // idempotent
}
