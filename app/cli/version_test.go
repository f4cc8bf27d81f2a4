package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/cli"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// --version names what the sidecar was really built with: the vendored SDK and the claude version it pins.
func TestVersionTextNamesBatonTheSDKAndThePinnedClaude(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(root, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk", "package.json"))
	require.NoError(t, err, "the sidecar's npm dependencies are not installed (scripts/setup)")
	var sdk struct {
		Version           string `json:"version"`
		ClaudeCodeVersion string `json:"claudeCodeVersion"`
	}
	require.NoError(t, json.Unmarshal(raw, &sdk))
	require.NotEmpty(t, sdk.Version)
	require.NotEmpty(t, sdk.ClaudeCodeVersion)

	require.Equal(t,
		"baton 1.2.3+abc\nclaude-agent-sdk "+sdk.Version+"\nclaude "+sdk.ClaudeCodeVersion+" (pinned)\n",
		cli.VersionText("1.2.3+abc"))
}
