package activity

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSideReadEventsKeepTheirShapeThroughTheHost(t *testing.T) {
	for _, line := range []string{
		`{"kind":"commands.updated","session":"s","time":"2026-11-30T12:00:00Z","commands":[]}`,
		`{"kind":"commands.updated","session":"s","time":"2026-11-30T12:00:00Z","commands":[{"name":"review","description":"Review a PR","argumentHint":"<pr>"}]}`,
		`{"kind":"models.updated","session":"s","time":"2026-11-30T12:00:00Z","models":[{"value":"sonnet","displayName":"Sonnet","description":"Balanced","resolvedModel":"claude-sonnet-5"}]}`,
		`{"kind":"context.updated","session":"s","time":"2026-11-30T12:00:00Z","totalTokens":0,"maxTokens":200000,"percentage":0}`,
	} {
		var ev Event
		require.NoError(t, json.Unmarshal([]byte(line), &ev), line)
		require.NoError(t, ev.Validate(), line)
		out, err := json.Marshal(ev)
		require.NoError(t, err)
		require.JSONEq(t, line, string(out), "an empty list and zero counts survive re-encoding")
	}
}

func TestSideReadEventsNeedTheirFields(t *testing.T) {
	now := time.Now()
	for _, ev := range []Event{
		{Kind: CommandsUpdated, Session: "s", Time: now},
		{Kind: ModelsUpdated, Session: "s", Time: now},
		{Kind: ContextUpdated, Session: "s", Time: now, TotalTokens: new(int64)},
	} {
		require.Error(t, ev.Validate(), ev.Kind)
	}
}
