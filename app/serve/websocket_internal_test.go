package serve

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// The hand-assembled pushes are byte for byte what marshalling the documented message shapes gives, markup in
// text escaped the same way.
func TestEventPushesAreTheDocumentedJSON(t *testing.T) {
	index := int64(0)
	evs := []activity.Event{
		{Kind: activity.MessageDelta, Session: "s", Turn: "t", Seq: 7, Time: time.Date(2026, 12, 1, 8, 0, 0, 123e6, time.UTC),
			Ephemeral: true, MessageID: "m", Index: &index, Block: activity.MessageBlockText, Text: `<img src=x onerror="a&b">` + "\u2028"},
		{Kind: activity.TurnStarted, Session: "s", Turn: "t", Prompt: "hi"},
	}
	one, err := eventJSON(evs[0])
	require.NoError(t, err)
	want, err := json.Marshal(struct {
		Type  string         `json:"type"`
		Event activity.Event `json:"event"`
	}{"event", evs[0]})
	require.NoError(t, err)
	require.Equal(t, string(want), string(one))

	many, err := eventsJSON(evs)
	require.NoError(t, err)
	want, err = json.Marshal(struct {
		Type   string           `json:"type"`
		Events []activity.Event `json:"events"`
	}{"events", evs})
	require.NoError(t, err)
	require.Equal(t, string(want), string(many))
	require.True(t, json.Valid(many))
}
