package activity_test

import (
	"encoding/json"
	"testing"
	"time"

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

// What the host sends on is exactly the kind's fields, required ones even when empty (the console keeps no table
// of defaults), and nothing of other kinds.
func TestMarshalWritesRequiredEmptyValues(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	out, err := json.Marshal(activity.Event{Kind: activity.MessageDelta, Session: "s", Time: at, Ephemeral: true, MessageID: "m", Block: activity.MessageBlockText})
	require.NoError(t, err)
	require.JSONEq(t, `{"kind":"message.delta","session":"s","time":"2026-11-30T12:00:00Z","ephemeral":true,"messageId":"m","index":0,"block":"text","text":""}`, string(out))
	out, err = json.Marshal(activity.Event{Kind: activity.PlanUpdated, Session: "s", Time: at, Text: "not a plan field"})
	require.NoError(t, err)
	require.JSONEq(t, `{"kind":"plan.updated","session":"s","time":"2026-11-30T12:00:00Z","items":[]}`, string(out))
}
