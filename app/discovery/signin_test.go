package discovery

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// The whole chain with real pieces: the sign-in watcher and probe over a temp config dir, real hidden queries,
// and the cache in between. Signing in (an apiKeyHelper setting) gives a new account; signing out again returns
// to the first account's key, and its models are discovered again because the change cleared the cache.
func TestCacheFollowsTheRealSignIn(t *testing.T) {
	r := newRig(t)
	var env []string
	for _, kv := range r.env {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	r.env = env
	g := auth.NewGate(time.Minute)
	cfg := filepath.Join(r.home, ".claude")
	signIn, err := auth.NewService(auth.Options{
		Executable: func(context.Context) (string, error) { return r.claude, nil },
		Env:        env, Home: r.home, ConfigDir: cfg, Gate: g, Logger: zerolog.Nop(),
		Debounce: 50 * time.Millisecond, PollInterval: 100 * time.Millisecond,
	})
	require.NoError(t, err)
	t.Cleanup(signIn.Close)
	states, stop := signIn.Subscribe()
	t.Cleanup(stop)
	require.NoError(t, signIn.Start(context.Background()))
	awaitState(t, states, func(s auth.State) bool { return s.Status == auth.StatusSignedOut })

	hidden := r.hidden(t, g.Acquire)
	var runs atomic.Int32
	svc := New(Options{
		Discover: func(ctx context.Context) ([]activity.ModelEntry, error) {
			runs.Add(1)
			return hidden.Discover(ctx)
		},
		Account: func() Account { return AccountOf(signIn.State(), signIn.Paths().Credentials) },
		Logger:  zerolog.Nop(),
	})
	t.Cleanup(svc.Close)
	follow, stopFollow := signIn.Subscribe()
	t.Cleanup(stopFollow)
	go svc.FollowAuth(follow)

	signedOut := listModels(t, svc)
	require.True(t, strings.HasPrefix(signedOut.Account, "firstParty/signed_out:"), signedOut.Account)
	require.NotEmpty(t, signedOut.Models)
	require.Equal(t, signedOut, listModels(t, svc))
	require.EqualValues(t, 1, runs.Load())

	settings := filepath.Join(cfg, "settings.json")
	require.NoError(t, os.WriteFile(settings, []byte(`{"apiKeyHelper":"echo sk-ant-api03-FAKE-HELPER-KEY"}`), 0o600))
	awaitState(t, states, func(s auth.State) bool { return s.KeySource == "apiKeyHelper" })
	withKey := listModels(t, svc)
	require.True(t, strings.HasPrefix(withKey.Account, "firstParty/api_key:"), withKey.Account)
	require.EqualValues(t, 2, runs.Load())
	require.NotContains(t, withKey.Account, "FAKE-HELPER-KEY")

	require.NoError(t, os.Remove(settings))
	awaitState(t, states, func(s auth.State) bool { return s.Status == auth.StatusSignedOut })
	require.Eventually(t, func() bool { return listModels(t, svc).Account == signedOut.Account && runs.Load() == 3 },
		30*time.Second, 20*time.Millisecond, "the signed-out account's models were discovered again, not served stale")
	require.Zero(t, r.apiRequests(t))
}

func awaitState(t *testing.T, states <-chan auth.State, ok func(auth.State) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case st := <-states:
			if ok(st) {
				return
			}
		case <-deadline:
			t.Fatal("the sign-in state did not change as expected")
		}
	}
}

func listModels(t *testing.T, svc *Service) Models {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	got, err := svc.List(ctx)
	require.NoError(t, err)
	return got
}
