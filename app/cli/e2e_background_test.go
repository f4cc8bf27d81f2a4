package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
)

// A background command started by Claude: baton exec ends only after it finished and Claude Code's follow-up (the
// launching turn's continuation) is printed; the notice Claude Code files is never shown as the person's words.
func TestExecWaitsForBackgroundWorkAndPrintsTheFollowUp(t *testing.T) {
	h := newCLIHarness(t)
	prompt := `[tool Bash {"command":"sleep 2; echo finished","description":"wait then echo","run_in_background":true}]`
	r := h.run("exec", "--json", "--approve", "all", prompt)
	require.Equal(t, 0, r.code, r.stderr)
	events := parseEvents(t, r.stdout)
	started := find(events, activity.TaskStarted)
	require.Len(t, started, 1)
	require.True(t, *started[0].Backgrounded)
	require.Len(t, find(events, activity.TaskCompleted), 1)
	levels := find(events, activity.TasksUpdated)
	require.NotEmpty(t, levels)
	require.Empty(t, levels[len(levels)-1].Tasks, "the background work finished before exit")
	var followUp, end = -1, -1
	for i, ev := range events {
		if ev.Kind == activity.MessageCompleted && strings.HasPrefix(ev.Text, fakeapi.FollowUpPrefix) {
			followUp = i
		}
		if ev.Kind == activity.TurnCompleted {
			require.Equal(t, -1, end, "the turn ends once")
			end = i
		}
		require.NotContains(t, ev.Text, "task-notification")
	}
	require.NotEqual(t, -1, followUp, "the follow-up was printed")
	require.Greater(t, end, followUp, "the turn ended after its follow-up")

	r = h.run("exec", "--approve", "all", prompt)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "started in the background")
	require.Contains(t, r.stdout, fakeapi.FollowUpPrefix)
}
