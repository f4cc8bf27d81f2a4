package cli_test

import (
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// The CLI shows a tool call by the title the sidecar's tool catalogue gave it, live and in history (the same
// mapper reads both), and the events carry the call's kind.
func TestExecShowsToolCallsByTheirCatalogueTitle(t *testing.T) {
	h := newCLIHarness(t)
	const id = "25252525-0000-4000-8000-000000000001"
	const made = "titled.txt" // the fake API names the file as the prompt does
	r := h.run("exec", "--json", "--approve", "all", "--permission-mode", "default", "--session-id", id, "[write titled.txt hi]")
	require.Equal(t, 0, r.code, r.stderr)
	events := parseEvents(t, r.stdout)
	started := find(events, activity.ToolStarted)
	require.Len(t, started, 1)
	require.Equal(t, activity.ToolKindWrite, started[0].ToolKind)
	require.Equal(t, "Write "+made, started[0].Title)
	require.Equal(t, made, started[0].Path)
	asked := find(events, activity.PermissionRequested)
	require.Len(t, asked, 1)
	require.Equal(t, activity.ToolKindWrite, asked[0].ToolKind)
	// Claude Code hands canUseTool the absolute path.
	require.True(t, strings.HasPrefix(asked[0].ToolTitle, "Write /") && strings.HasSuffix(asked[0].ToolTitle, "/"+made), asked[0].ToolTitle)

	r = h.run("history", id)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "▶ Write "+made+"\n")
}
