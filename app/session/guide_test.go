package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// Guidance mid-stream: one turn id, turn.guided, the guidance's reply streamed on that turn, and one terminal event.
func TestGuidanceSteersTheRunningTurn(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[hold] write a long essay")
	h.waitDelta(turn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	steered, guided, err := s.Guide(ctx, "make it a haiku instead")
	require.NoError(t, err)
	require.True(t, guided)
	require.Equal(t, turn, steered, "guidance keeps the turn id")
	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCompleted, end.Kind, "%+v", end)
	h.release()

	events := h.rec.all(ofTurn(turn))
	var guidedAt, replyAt = -1, -1
	for i, ev := range events {
		switch {
		case ev.Kind == activity.TurnGuided:
			require.Equal(t, "make it a haiku instead", ev.Prompt)
			guidedAt = i
		// The CLI sends the guidance after its "[Request interrupted by user]" marker; the fake echoes both.
		case ev.Kind == activity.MessageCompleted && ev.Role == "assistant" && strings.HasSuffix(ev.Text, "\nmake it a haiku instead"):
			replyAt = i
		}
	}
	require.GreaterOrEqual(t, guidedAt, 0, "turn.guided was emitted: %v", kindsOf(events))
	require.Greater(t, replyAt, guidedAt, "the guidance's reply streams on the same turn, after turn.guided")
	require.Len(t, h.terminals(turn), 1, "the steered turn ends exactly once")

	// Nothing runs: guidance is an ordinary prompt with its own turn.
	other, guided, err := s.Guide(ctx, "plain prompt")
	require.NoError(t, err)
	require.False(t, guided)
	require.NotEqual(t, turn, other)
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(other).Kind)
	h.close(s)
}
