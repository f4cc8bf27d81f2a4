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
