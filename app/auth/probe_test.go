package auth

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/testenv"
)

func TestProbeReportsEachSignInMethod(t *testing.T) {
	claude := testenv.RequireClaude(t)
	cases := []struct {
		name  string
		env   []string
		creds bool
		check func(t *testing.T, st State)
	}{
		{"oauth token", []string{envOAuthToken + "=" + fakeAccessToken}, false, func(t *testing.T, st State) {
			assert.Equal(t, MethodOAuthToken, st.Method)
			assert.Equal(t, envOAuthToken, st.KeySource)
			assert.Equal(t, "Using an OAuth token from CLAUDE_CODE_OAUTH_TOKEN", st.Summary)
		}},
		{"bedrock", []string{"CLAUDE_CODE_USE_BEDROCK=1"}, false, func(t *testing.T, st State) {
			assert.Equal(t, MethodThirdParty, st.Method)
			assert.Equal(t, "bedrock", st.Provider)
			assert.Equal(t, "Using Amazon Bedrock", st.Summary)
		}},
		{"subscription", nil, true, func(t *testing.T, st State) {
			assert.Equal(t, MethodSubscription, st.Method)
			assert.Equal(t, "max", st.Plan)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := testenv.NewHome(t)
			if c.creds {
				require.NoError(t, os.WriteFile(filepath.Join(home, ".claude", ".credentials.json"), credentialsJSON(t, "max"), 0o600))
			}
			st := runProbe(context.Background(), probeRequest{Executable: claude, Env: probeEnv(home, c.env...), Dir: home})
			require.Equal(t, StatusSignedIn, st.Status, "%+v", st)
			c.check(t, st)
			assert.NotContains(t, stateJSON(t, st), fakeAccessToken)
		})
	}
}

func TestProbeWithAnAPIKeyHelperSetting(t *testing.T) {
	home := testenv.NewHome(t)
	settings := `{"apiKeyHelper":"echo ` + fakeKey + `"}`
	require.NoError(t, os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o600))
	st := runProbe(context.Background(), probeRequest{Executable: testenv.RequireClaude(t), Env: probeEnv(home), Dir: home})
	require.Equal(t, StatusSignedIn, st.Status, "%+v", st)
	assert.Equal(t, MethodAPIKey, st.Method)
	assert.Equal(t, "apiKeyHelper", st.KeySource)
	assert.Equal(t, "Using an API key from the apiKeyHelper setting", st.Summary)
	assert.NotContains(t, stateJSON(t, st), fakeKey)
}

// The following stand-ins play a broken claude: the real one cannot be made to fail these ways.

func TestProbeUnknownWhenClaudeIsMissingOrAbsent(t *testing.T) {
	st := runProbe(context.Background(), probeRequest{Executable: ""})
	assert.Equal(t, StatusUnknown, st.Status)
	assert.Contains(t, st.Reason, "No claude executable was found")

	missing := filepath.Join(t.TempDir(), "claude")
	st = runProbe(context.Background(), probeRequest{Executable: missing})
	assert.Equal(t, StatusUnknown, st.Status)
	assert.Equal(t, "Baton could not run claude at "+missing+": the file does not exist.", st.Reason)

	if runtime.GOOS != "windows" {
		notExec := filepath.Join(t.TempDir(), "claude")
		require.NoError(t, os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644))
		st = runProbe(context.Background(), probeRequest{Executable: notExec})
		assert.Contains(t, st.Reason, "not executable")
	}
}

func TestProbeNeverRepeatsWhatABrokenClaudePrints(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell stand-ins")
	}
	env := append(os.Environ(), envAPIKey+"="+fakeKey)
	cases := map[string]struct {
		script string
		reason string
	}{
		"garbage and a failure":          {`echo "$ANTHROPIC_API_KEY"; echo "$ANTHROPIC_API_KEY" >&2; exit 3`, "exit status 3"},
		"garbage and success":            {`echo "key=$ANTHROPIC_API_KEY"`, "does not understand"},
		"json without the verdict":       {`echo '{"authMethod":"'"$ANTHROPIC_API_KEY"'"}'`, "does not understand"},
		"too old":                        {`echo "error: unknown command 'auth' $ANTHROPIC_API_KEY" >&2; exit 1`, "too old"},
		"a key where a source name goes": {`echo '{"loggedIn":true,"authMethod":"api_key","apiKeySource":"'"$ANTHROPIC_API_KEY"'"}'`, ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			st := runProbe(context.Background(), probeRequest{Executable: writeScript(t, "claude", c.script+"\n"), Env: env})
			if c.reason != "" {
				assert.Equal(t, StatusUnknown, st.Status)
				assert.Contains(t, st.Reason, c.reason)
			} else {
				assert.Equal(t, MethodAPIKey, st.Method)
				assert.Empty(t, st.KeySource)
			}
			assert.NotContains(t, stateJSON(t, st), fakeKey)
		})
	}
}

func TestProbeTimeoutStopsClaudeAndWhatItStarted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc to find leftover processes")
	}
	marker := "4" + strconv.Itoa(os.Getpid()%1000) + "1"
	script := writeScript(t, "claude", "sleep "+marker+" &\nsleep "+marker+"\n")
	st := runProbe(context.Background(), probeRequest{Executable: script, Env: os.Environ(), Timeout: 300 * time.Millisecond})
	assert.Equal(t, StatusUnknown, st.Status)
	assert.Contains(t, st.Reason, "did not report its sign-in within 300ms")
	require.Eventually(t, func() bool { return len(processesRunning("sleep "+marker)) == 0 }, 5*time.Second, 20*time.Millisecond,
		"the probe's children must not outlive the timeout")
}

func TestProbeStopsWhenItsContextEnds(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell stand-in")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := runProbe(ctx, probeRequest{Executable: writeScript(t, "claude", "sleep 5\n"), Env: os.Environ()})
	assert.Equal(t, StatusUnknown, st.Status)
	assert.Contains(t, st.Reason, "stopped before claude answered")
}

// processesRunning lists pids whose command line is exactly cmd.
func processesRunning(cmd string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " ")) == cmd {
			out = append(out, e.Name())
		}
	}
	return out
}
