package session_test

import (
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/stretchr/testify/require"
)

// While Claude thinks, the live count is Claude Code's estimate of the thinking (system/thinking_tokens, which
// takes the API's own estimated_tokens), not its text's length / 4: the scripted API counts its thinking at
// ThinkingEstimate tokens, far from the 22 a 4-characters guess makes of it.
func TestLiveThinkingCountIsTheAPIsEstimate(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[think-estimated] weigh the options")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)

	var running []int64
	var thinking []int64
	for _, ev := range h.rec.all(ofTurn(turn)) {
		if ev.Kind == activity.MessageCompleted && ev.Role == "thinking" {
			require.Equal(t, fakeapi.EstimatedThinkingText, ev.Text)
			break // the request's real count follows; what came before was the estimate
		}
		if ev.Kind == activity.UsageUpdated && ev.Ephemeral && ev.TurnOutputTokens != nil {
			running = append(running, *ev.TurnOutputTokens)
			if ev.ThinkingTokens != nil {
				thinking = append(thinking, *ev.ThinkingTokens)
			}
		}
	}
	require.NotEmpty(t, running, "the count runs while Claude thinks")
	require.Equal(t, int64(fakeapi.ThinkingEstimate), running[len(running)-1], "running counts %v", running)
	require.NotContains(t, running, int64((len(fakeapi.EstimatedThinkingText)+3)/4), "no 4-characters guess: %v", running)
	require.Equal(t, running, thinking, "all of it is the thinking estimate, and said to be")
	h.close(s)
}
