package cli

import (
	"bytes"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// A turn waiting on an overloaded API says so in the transcript; routine status changes do not add lines.
func TestTranscriptShowsRetriesOnly(t *testing.T) {
	var out bytes.Buffer
	tr := newTranscript(&out)
	tr.render(activity.Event{Kind: activity.SessionUpdated, Ephemeral: true, Status: "requesting"})
	require.Empty(t, out.String())
	status := int64(529)
	tr.render(activity.Event{Kind: activity.SessionUpdated, Ephemeral: true, Status: activity.SessionActivityRetrying,
		Retry: &activity.RetryInfo{Attempt: 2, MaxRetries: 10, HTTPStatus: &status}})
	require.Equal(t, "  … retrying (attempt 2 of 10, HTTP 529)\n", out.String())
}

// A stopped turn's open tool reads canceled, and its half-written reply stays with a stopped mark.
func TestTranscriptSettlesAStoppedTurn(t *testing.T) {
	var out bytes.Buffer
	tr := newTranscript(&out)
	yes := true
	tr.render(activity.Event{Kind: activity.ToolStarted, Name: "Bash", ToolUseID: "toolu_1"})
	tr.render(activity.Event{Kind: activity.ToolInterrupted, Name: "Bash", ToolUseID: "toolu_1", Cause: activity.ToolInterruptCauseCancel})
	tr.render(activity.Event{Kind: activity.MessageDelta, Block: "text", MessageID: "m1", Text: "Half of"})
	tr.render(activity.Event{Kind: activity.MessageCompleted, Role: "assistant", MessageID: "m1", Text: "Half of", Stopped: &yes})
	tr.render(activity.Event{Kind: activity.ToolInterrupted, Name: "Read", ToolUseID: "toolu_2", Cause: activity.ToolInterruptCauseSidecarExited})
	require.Equal(t, "▶ Bash \n■ Bash canceled\nHalf of [stopped]\n■ Read interrupted (the agent process stopped)\n", out.String())
}
