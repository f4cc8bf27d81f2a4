package runner_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/runner"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// A signed-out Claude Code fails the run before anything starts, with the sign-in hint: the real sign-in check
// (claude auth status) on a temp home with no login and no ANTHROPIC_API_KEY. No sidecar starts and the API
// gets nothing. Once signed in (a key in the environment) the same kind of runner runs.
func TestRunFailsFastWhenSignedOut(t *testing.T) {
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(nil)
	require.NoError(t, err)
	t.Cleanup(api.Close)
	var signedOut []string
	for _, kv := range testenv.CLIEnv(api.URL(), testenv.NewHome(t)) {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			signedOut = append(signedOut, kv)
		}
	}
	started := filepath.Join(t.TempDir(), "sidecar-started")
	newRunner := func(env []string) *runner.Runner {
		return runner.New(runner.Config{SidecarPath: testenv.RecordingSidecarPath(t, started), Env: env,
			Executable: func(context.Context) (string, error) { return claude, nil }, Logger: zerolog.Nop()})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	spec := runner.Spec{Cwd: testenv.NewProject(t), Prompt: "hello", MaxTurns: 1}

	res, err := newRunner(signedOut).Run(ctx, spec)
	var authErr *runner.AuthError
	require.ErrorAs(t, err, &authErr)
	require.Equal(t, auth.StatusSignedOut, authErr.State.Status)
	require.Equal(t, runner.StopError, res.StopReason)
	require.Equal(t, "auth", res.Detail)
	require.Contains(t, res.Error, "To sign in, run: ")
	require.Contains(t, res.Error, " auth login")
	require.NoFileExists(t, started, "no sidecar starts for a run that cannot sign in")
	require.Empty(t, api.Hits(), "nothing reaches the API")

	res, err = newRunner(append(signedOut, "ANTHROPIC_API_KEY="+testenv.FakeAPIKey)).Run(ctx, spec)
	require.NoError(t, err)
	require.Equal(t, runner.StopNatural, res.StopReason)
	require.FileExists(t, started)
}
