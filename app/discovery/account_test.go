package discovery

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/auth"
	"github.com/stretchr/testify/require"
)

func TestAccountKeyNamesProviderAndMethodAndChangesWithTheSignIn(t *testing.T) {
	base := auth.State{Status: auth.StatusSignedIn, Method: auth.MethodAPIKey, Provider: "firstParty", KeySource: "ANTHROPIC_API_KEY"}
	key := AccountOf(base, "").Key()
	require.Regexp(t, `^firstParty/api_key:[0-9a-f]{16}$`, key)
	require.Equal(t, key, AccountOf(base, "").Key(), "stable")

	variants := map[string]auth.State{}
	v := base
	v.KeySource = "apiKeyHelper"
	variants["key source"] = v
	v = base
	v.Method, v.Email = auth.MethodSubscription, "a@example.com"
	variants["method"] = v
	v = base
	v.Method, v.Email, v.Organization = auth.MethodSubscription, "a@example.com", "Other org"
	variants["organization"] = v
	v = base
	v.Provider = "bedrock"
	variants["provider"] = v
	for name, st := range variants {
		require.NotEqual(t, key, AccountOf(st, "").Key(), name)
	}
	require.Regexp(t, `^unknown/signed_out:`, AccountOf(auth.State{Status: auth.StatusSignedOut}, "").Key())

	// What the console sees of a state never depends on more than the state's own non-secret fields.
	require.Equal(t, key, AccountOf(auth.State{Status: base.Status, Method: base.Method, Provider: base.Provider,
		KeySource: base.KeySource, Summary: "whatever", SignInCommand: "claude auth login"}, "").Key())
}

// The credentials file counts by its modification time and size only: a refreshed login is a new account, and
// nothing of the file's content reaches the key.
func TestAccountFollowsTheCredentialsFileNotItsContent(t *testing.T) {
	const secret = "sk-ant-oat01-FAKE-SECRET-0a1b2c"
	path := filepath.Join(t.TempDir(), ".credentials.json")
	st := auth.State{Status: auth.StatusSignedIn, Method: auth.MethodSubscription, Provider: "firstParty"}
	absent := AccountOf(st, path)
	require.Empty(t, absent.Credentials)

	require.NoError(t, os.WriteFile(path, []byte(`{"claudeAiOauth":{"accessToken":"`+secret+`"}}`), 0o600))
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(path, stamp, stamp))
	written := AccountOf(st, path)
	require.NotEmpty(t, written.Credentials)
	require.NotEqual(t, absent.Key(), written.Key())
	require.NotContains(t, written.Key()+written.Credentials, secret)
	require.False(t, strings.Contains(written.Key(), "accessToken"))

	// Same size and time, other content: the same account (the content is never read).
	require.NoError(t, os.WriteFile(path, []byte(`{"claudeAiOauth":{"accessToken":"`+strings.Repeat("x", len(secret))+`"}}`), 0o600))
	require.NoError(t, os.Chtimes(path, stamp, stamp))
	require.Equal(t, written.Key(), AccountOf(st, path).Key())

	// A refresh rewrites it: a new account.
	require.NoError(t, os.Chtimes(path, stamp.Add(time.Minute), stamp.Add(time.Minute)))
	require.NotEqual(t, written.Key(), AccountOf(st, path).Key())
}
