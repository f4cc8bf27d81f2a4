package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// withoutAPIKey drops ANTHROPIC_API_KEY from the harness's environment: the CLI has no key of its own.
func (h *cliHarness) withoutAPIKey() {
	env := h.env[:0:0]
	for _, kv := range h.env {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	h.env = env
}

// messageHits counts the requests the scripted API got for /v1/messages with the given status (0: any).
func (h *cliHarness) messageHits(status int) int {
	n := 0
	for _, hit := range h.api.Hits() {
		require.False(h.t, hit.Proxied, "traffic meant for another host: %s", hit.Target)
		if strings.HasPrefix(hit.Target, "/v1/messages") && !strings.Contains(hit.Target, "count_tokens") &&
			(status == 0 || hit.Status == status) {
			n++
		}
	}
	return n
}

// An API key the API refuses (401) is "Key rejected", named by its variable, and never printed.
func TestExecExplainsARejectedKey(t *testing.T) {
	h := newCLIHarness(t)
	r := h.run("exec", "[status 401] hello")
	require.Equal(t, 1, r.code, r.stderr)
	require.Equal(t, 1, h.messageHits(401), "the scripted API refused the turn")
	require.Contains(t, r.stdout, "Key rejected: The API key in ANTHROPIC_API_KEY was rejected by Anthropic. Replace or fix the key.")
	require.NotContains(t, r.stdout, "Error: ", "not shown as a generic error")
	require.NotContains(t, r.stdout, "To sign in", "signing in does not replace a key from the environment")
	require.NotContains(t, r.stdout+r.stderr, testenv.FakeAPIKey)

	// --json keeps stdout to events; the explanation goes to stderr.
	r = h.run("exec", "--json", "[status 401] hello")
	require.Equal(t, 1, r.code, r.stderr)
	failed := find(parseEvents(t, r.stdout), activity.TurnFailed)
	require.Len(t, failed, 1)
	require.Equal(t, "auth", failed[0].Code)
	require.Contains(t, r.stderr, "baton: Key rejected: The API key in ANTHROPIC_API_KEY was rejected")
	require.NotContains(t, r.stdout+r.stderr, testenv.FakeAPIKey)
}

// With no sign-in at all the CLI fails the turn itself (no API request): "Signed out", with the sign-in command.
func TestExecExplainsSignedOut(t *testing.T) {
	h := newCLIHarness(t)
	h.withoutAPIKey()
	r := h.run("exec", "hello")
	require.Equal(t, 1, r.code, r.stderr)
	require.Zero(t, h.messageHits(0), "a signed-out CLI sends nothing")
	require.Contains(t, r.stdout, "Signed out: Claude Code is not signed in. Sign in to continue.")
	require.Contains(t, r.stdout, "To sign in, run: CLAUDE_CONFIG_DIR=")
	require.Contains(t, r.stdout, " auth login")
	require.NotContains(t, r.stdout, "Error: ")
}

// A stored Console login whose key the API refuses (401) is a login that expired or was revoked: "Signed out",
// with the sign-in command, not "Key rejected".
func TestExecExplainsARevokedLogin(t *testing.T) {
	h := newCLIHarness(t)
	h.withoutAPIKey()
	const managedKey = "sk-ant-api03-FAKE-MANAGED-KEY-5e6f7a"
	globalState := filepath.Join(h.home, ".claude", ".claude.json") // CLAUDE_CONFIG_DIR/.claude.json
	require.NoError(t, os.WriteFile(globalState, []byte(`{"primaryApiKey":"`+managedKey+`"}`), 0o600))
	r := h.run("exec", "[status 401] hello")
	require.Equal(t, 1, r.code, r.stderr)
	require.Equal(t, 1, h.messageHits(401), "the scripted API refused the stored key")
	require.Contains(t, r.stdout, "Signed out: Your Claude sign-in has expired or was revoked. Sign in again to continue.")
	require.Contains(t, r.stdout, " auth login")
	require.NotContains(t, r.stdout+r.stderr, managedKey)
}

// With Claude Code's own retries on (its default: ten, over about three and a half minutes), a 401 still fails the
// turn at once: the sidecar stops it at the CLI's first retry report, not after a timer.
func TestExecFailsARejectedKeyAtTheFirstRetry(t *testing.T) {
	h := newCLIHarness(t)
	h.env = append(h.env, "CLAUDE_CODE_MAX_RETRIES=10")
	r := h.run("exec", "--json", "[status 401] hello")
	require.Equal(t, 1, r.code, r.stderr)
	failed := find(parseEvents(t, r.stdout), activity.TurnFailed)
	require.Len(t, failed, 1)
	require.Equal(t, "auth", failed[0].Code)
	require.Contains(t, r.stderr, "baton: Key rejected: The API key in ANTHROPIC_API_KEY was rejected")
	require.Positive(t, h.messageHits(401), "the scripted API refused the turn")
	require.NotContains(t, r.stdout+r.stderr, testenv.FakeAPIKey)
}
