package auth

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
)

// keychainLogin: on macOS the claude.ai login lives in the keychain, not in .credentials.json, so the only way
// to see it is to ask the CLI without the key.
var keychainLogin = runtime.GOOS == "darwin"

// shadowWarning says that an ANTHROPIC_API_KEY hides a subscription login.
func shadowWarning() Warning {
	return Warning{
		Code: WarningKeyShadowsSubscription,
		Message: "ANTHROPIC_API_KEY is set, so sessions use that API key (billed to its API account) instead of your " +
			"claude.ai subscription. Unset it in the environment Baton starts from to use the subscription.",
	}
}

// keyShadowsSubscription reports whether the API key from the environment is what the CLI uses while a
// subscription login is also stored. req is the probe just run; its environment decides.
func keyShadowsSubscription(ctx context.Context, st State, req probeRequest, credentials string, keychain bool) bool {
	keyInUse := envSet(req.Env, envAPIKey) || (st.Method == MethodAPIKey && st.KeySource == envAPIKey)
	if !keyInUse || st.Method == MethodSubscription {
		return false
	}
	if credentialsHoldSubscription(credentials) {
		return true
	}
	if !keychain {
		return false
	}
	req.Env = envWithout(req.Env, envAPIKey)
	return runProbe(ctx, req).Method == MethodSubscription
}

// credentialsHoldSubscription reports whether .credentials.json holds a claude.ai login (claudeAiOauth).
// Only the key's presence is read; nothing of it is kept.
func credentialsHoldSubscription(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var doc struct {
		ClaudeAiOauth json.RawMessage `json:"claudeAiOauth"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return false
	}
	return len(doc.ClaudeAiOauth) > 0 && string(doc.ClaudeAiOauth) != "null"
}
