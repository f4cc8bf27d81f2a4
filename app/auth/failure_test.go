package auth

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassifyTurnFailure(t *testing.T) {
	subscription := State{Status: StatusSignedIn, Method: MethodSubscription, SignInCommand: "/opt/claude auth login"}
	envKey := State{Status: StatusSignedIn, Method: MethodAPIKey, KeySource: envAPIKey}
	shadowing := envKey
	shadowing.Warnings = []Warning{shadowWarning()}
	cases := []struct {
		name, code, message string
		st                  State
		ok                  bool
		kind                FailureKind
		contains            string
		signIn              string
	}{
		{"expired subscription", "auth", "OAuth token has expired", subscription, true, FailureSignedOut, "expired or was revoked", "/opt/claude auth login"},
		{"no sign-in", "auth", "Invalid API key · Please run /login", State{Status: StatusSignedOut}, true, FailureSignedOut, "not signed in", "claude auth login"},
		{"unknown state", "auth", "401", State{Status: StatusUnknown}, true, FailureSignedOut, "Sign in again", "claude auth login"},
		{"console login", "auth", "", State{Status: StatusSignedIn, Method: MethodConsole}, true, FailureSignedOut, "Sign in again", "claude auth login"},
		{"env key", "auth", "Invalid API key · Fix external API key", envKey, true, FailureKeyRejected, "The API key in ANTHROPIC_API_KEY was rejected", ""},
		{"env key over a subscription", "auth", "", shadowing, true, FailureKeyRejected, "unset ANTHROPIC_API_KEY to use your claude.ai subscription", ""},
		{"key helper", "auth", "", State{Status: StatusSignedIn, Method: MethodAPIKey, KeySource: "apiKeyHelper"}, true, FailureKeyRejected, "apiKeyHelper", ""},
		{"env token", "auth", "", State{Status: StatusSignedIn, Method: MethodOAuthToken, KeySource: envOAuthToken}, true, FailureKeyRejected, "CLAUDE_CODE_OAUTH_TOKEN", ""},
		{"provider", "auth", "", State{Status: StatusSignedIn, Method: MethodThirdParty, Provider: "vertex"}, true, FailureKeyRejected, "Google Vertex AI", ""},
		{"401 reported as an API error", "api_error", "API Error: 401 {\"type\":\"authentication_error\"}", subscription, true, FailureSignedOut, "expired", "/opt/claude auth login"},
		{"other API error", "api_error", "API Error: 400 fake invalid request", subscription, false, "", "", ""},
		{"overloaded", "api_error", "API Error: 529 Overloaded (request 4011)", subscription, false, "", "", ""},
		{"max turns", "max_turns", "Reached maximum number of turns (1)", subscription, false, "", "", ""},
		{"sidecar exit", "sidecar_exited", "401", subscription, false, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, ok := ClassifyTurnFailure(c.code, c.message, c.st)
			assert.Equal(t, c.ok, ok)
			if !ok {
				assert.Zero(t, f)
				return
			}
			assert.Equal(t, c.kind, f.Kind)
			assert.Contains(t, f.Message, c.contains)
			assert.Equal(t, c.signIn, f.SignInCommand)
			if c.kind == FailureSignedOut {
				assert.Equal(t, "Signed out", f.Title)
			} else {
				assert.Equal(t, "Key rejected", f.Title)
			}
		})
	}
}

func TestClassifyTurnFailureNeverEchoesTheAPIText(t *testing.T) {
	f, ok := ClassifyTurnFailure("auth", "Invalid API key "+fakeKey, State{Status: StatusSignedIn, Method: MethodAPIKey, KeySource: envAPIKey})
	assert.True(t, ok)
	assert.NotContains(t, f.Message, fakeKey)
}
