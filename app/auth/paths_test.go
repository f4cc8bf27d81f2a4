package auth

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolvePathsFollowsTheCLI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("HOME layout")
	}
	home := t.TempDir()
	p, err := ResolvePaths([]string{"HOME=" + home})
	require.NoError(t, err)
	assert.Equal(t, Paths{
		ConfigDir:   filepath.Join(home, ".claude"),
		Settings:    filepath.Join(home, ".claude", "settings.json"),
		Credentials: filepath.Join(home, ".claude", ".credentials.json"),
		GlobalState: filepath.Join(home, ".claude.json"), // next to ~/.claude, not in it
	}, p)

	cfg := filepath.Join(home, "cfg")
	p, err = ResolvePaths([]string{"HOME=" + home, envConfigDir + "=" + cfg})
	require.NoError(t, err)
	assert.Equal(t, cfg, p.ConfigDir)
	assert.Equal(t, filepath.Join(cfg, ".claude.json"), p.GlobalState, "CLAUDE_CONFIG_DIR moves the global state file")

	p, err = ResolvePaths([]string{"HOME=" + home, envConfigDir + "="})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(home, ".claude"), p.ConfigDir, "an empty CLAUDE_CONFIG_DIR counts as unset")
}

func TestStateJSONShape(t *testing.T) {
	st := State{Status: StatusSignedIn, Method: MethodAPIKey, Summary: "s", KeySource: envAPIKey, Provider: "firstParty",
		Warnings: []Warning{shadowWarning()}, ConfigDir: "/c", SignInCommand: "claude auth login",
		CheckedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	b, err := json.Marshal(st)
	require.NoError(t, err)
	assert.JSONEq(t, `{"status":"signed_in","method":"api_key","summary":"s","provider":"firstParty","keySource":"ANTHROPIC_API_KEY",
		"warnings":[{"code":"api_key_shadows_subscription","message":`+mustJSON(t, shadowWarning().Message)+`}],
		"configDir":"/c","signInCommand":"claude auth login","checkedAt":"2026-01-02T03:04:05Z"}`, string(b))

	b, err = json.Marshal(checkingState())
	require.NoError(t, err)
	assert.JSONEq(t, `{"status":"unknown","summary":"Sign-in state unknown","reason":"Baton has not checked the sign-in yet."}`, string(b))
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
