package activity_test

import (
	"encoding/json"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// A plan the agent emptied must reach front ends as an empty list, not as a missing field.
func TestEmptiedPlanKeepsItsList(t *testing.T) {
	var ev activity.Event
	require.NoError(t, json.Unmarshal([]byte(`{"kind":"plan.updated","session":"s","time":"2026-11-30T12:00:00Z","items":[]}`), &ev))
	out, err := json.Marshal(ev)
	require.NoError(t, err)
	require.Contains(t, string(out), `"items":[]`)

	out, err = json.Marshal(activity.Event{Kind: activity.TurnStarted, Session: "s", Turn: "t", Prompt: "hi"})
	require.NoError(t, err)
	require.NotContains(t, string(out), `"items"`, "other kinds carry no plan")
}
