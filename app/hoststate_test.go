package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// What the window and browser mode show comes from these services: an executable that is already there is
// reported ready without a download, and signing in (a credentials file written by `claude auth login`)
// reaches the console's state while Baton runs.
func TestHostServicesFollowProvisioningAndSignIn(t *testing.T) {
	claude := testenv.RequireClaude(t)
	home := testenv.NewHome(t)
	testenv.UseHome(t, home, claude)

	h, err := openConsoleHost(context.Background(), zerolog.Nop())
	require.NoError(t, err)
	defer h.Close()
	updates, stop := h.state.Subscribe()
	defer stop()

	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !ok() {
			select {
			case <-updates:
			case <-time.After(200 * time.Millisecond):
			case <-deadline:
				t.Fatalf("timed out waiting for %s (auth %+v, provision %+v)", what, h.state.Auth(), h.state.Provision())
			}
		}
	}
	waitFor("the executable to be ready", func() bool { return h.state.Provision().State == "ready" })
	require.Equal(t, claude, h.state.Provision().Path)
	waitFor("signed out", func() bool { return h.state.Auth().Status == auth.StatusSignedOut })

	creds := `{"claudeAiOauth":{"accessToken":"sk-ant-oat01-test","refreshToken":"sk-ant-ort01-test",` +
		`"expiresAt":4102444800000,"scopes":["user:inference"],"subscriptionType":"max"}}`
	require.NoError(t, os.WriteFile(filepath.Join(home, ".claude", ".credentials.json"), []byte(creds), 0o600))
	waitFor("signed in", func() bool { return h.state.Auth().Status == auth.StatusSignedIn })
	require.Equal(t, auth.MethodSubscription, h.state.Auth().Method)

	require.NoError(t, os.Remove(filepath.Join(home, ".claude", ".credentials.json")))
	waitFor("signed out again", func() bool { return h.state.Auth().Status == auth.StatusSignedOut })
}
