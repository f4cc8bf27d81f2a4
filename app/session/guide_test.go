package session_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
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

// Guidance racing the turn's first output (issue 33, item 9): the scripted API holds the response (before its first
// byte, or after message_start, by which time Claude Code echoed the prompt and the turn is accepted) until the
// guidance was sent, so Claude Code is interrupted before any content and sends its interrupt marker and the guidance
// as one user message. The turn must still stream the guidance's reply and end exactly once.
func TestGuidanceBeforeTheFirstOutputEndsTheTurn(t *testing.T) {
	for _, afterStart := range []bool{false, true} {
		name := "before the first byte"
		if afterStart {
			name = "after turn.accepted"
		}
		t.Run(name, func(t *testing.T) { guideBeforeOutput(t, afterStart, false) })
	}
	t.Run("right after exec", func(t *testing.T) { guideBeforeOutput(t, false, true) })
}

func guideBeforeOutput(t *testing.T, afterStart, immediate bool) {
	h := newHarness(t)
	gate := make(chan struct{})
	asked := make(chan struct{})
	var once sync.Once
	h.scriptWith(func(req *fakeapi.Request) (fakeapi.Reply, bool) {
		last := req.LastUserText()
		if !strings.Contains(last, "[gated]") || strings.Contains(last, "go short") {
			return fakeapi.Reply{}, false
		}
		r := fakeapi.DefaultScript()(req)
		if afterStart {
			r.HoldContent = gate
		} else {
			r.HoldStart = gate
		}
		once.Do(func() { close(asked) })
		return r, true
	})
	s := h.start(sessionOpts())
	turn := h.exec(s, "[gated] a long answer")
	if !immediate {
		select {
		case <-asked:
		case <-time.After(60 * time.Second):
			t.Fatal("the turn's request never reached the API")
		}
	}
	if afterStart {
		h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnAccepted })
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	steered, guided, err := s.Guide(ctx, "go short")
	close(gate) // the held response may go on now: the guidance was sent
	require.NoError(t, err)
	require.True(t, guided)
	require.Equal(t, turn, steered)

	end := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
	require.Equal(t, activity.TurnCompleted, end.Kind, "%+v", end)
	reply := h.rec.all(func(ev activity.Event) bool {
		return ev.Turn == turn && ev.Kind == activity.MessageCompleted && ev.Role == "assistant" && strings.Contains(ev.Text, "go short")
	})
	require.NotEmpty(t, reply, "the guidance's reply streamed on the turn: %v", kindsOf(h.rec.all(ofTurn(turn))))
	require.Len(t, h.terminals(turn), 1, "the steered turn ends exactly once")

	next := h.exec(s, "and after that")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind, "the session goes on")
	h.close(s)
}
