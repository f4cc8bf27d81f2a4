package auth

import (
	"os"
	"runtime"
	"strings"
)

// Environment variables whose presence (never whose value) matters to sign-in.
const (
	envAPIKey      = "ANTHROPIC_API_KEY"
	envOAuthToken  = "CLAUDE_CODE_OAUTH_TOKEN"
	envAuthToken   = "ANTHROPIC_AUTH_TOKEN"
	envConfigDir   = "CLAUDE_CONFIG_DIR"
	envHome        = "HOME"
	envUserProfile = "USERPROFILE"
)

// sameName compares variable names the way the OS does: Windows names are case-insensitive.
func sameName(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// envLookup returns the value of name in env (the last entry wins, as in exec.Cmd).
func envLookup(env []string, name string) (string, bool) {
	val, found := "", false
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if ok && sameName(k, name) {
			val, found = v, true
		}
	}
	return val, found
}

// envSet reports whether name is present with a non-empty value; the CLI ignores empty ones.
func envSet(env []string, name string) bool {
	v, ok := envLookup(env, name)
	return ok && v != ""
}

// envWithout returns a copy of env without the named variables.
func envWithout(env []string, names ...string) []string {
	out := make([]string, 0, len(env))
next:
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		for _, n := range names {
			if sameName(k, n) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// envWith returns a copy of env with name set to value (replacing any earlier entry).
func envWith(env []string, name, value string) []string {
	return append(envWithout(env, name), name+"="+value)
}

// sessionEnv is the environment Baton's sessions get: the given one, or Baton's own when nil.
func sessionEnv(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return append([]string(nil), env...)
}

func isWindows() bool { return runtime.GOOS == "windows" }
