package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

func TestStreamedTextReply(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "hello there")
	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCompleted, end.Kind, "turn ended with %+v", end)

	events := h.rec.all(ofTurn(turn))
	firstDelta, completed := -1, -1
	var streamed strings.Builder
	for i, ev := range events {
		switch {
		case ev.Kind == activity.MessageDelta && ev.Block == "text":
			require.True(t, ev.Ephemeral)
			if firstDelta < 0 {
				firstDelta = i
			}
			streamed.WriteString(ev.Text)
		case ev.Kind == activity.MessageCompleted && ev.Role == "assistant" && completed < 0:
			completed = i
			require.Equal(t, "You said: hello there", ev.Text)
		}
	}
	require.GreaterOrEqual(t, firstDelta, 0, "no text deltas streamed")
	require.Greater(t, completed, firstDelta, "the completed message must follow its deltas")
	require.Equal(t, "You said: hello there", streamed.String())

	// seq is monotonic per session.
	var last uint64
	for _, ev := range h.rec.all(func(ev activity.Event) bool { return ev.Session == s.ID() }) {
		require.Greater(t, ev.Seq, last)
		last = ev.Seq
	}
	h.close(s)
}

func TestSummarizedThinking(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[think] ponder")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	thinking := h.rec.all(func(ev activity.Event) bool {
		return ev.Turn == turn && ev.Kind == activity.MessageCompleted && ev.Role == "thinking"
	})
	require.Len(t, thinking, 1)
	require.Contains(t, thinking[0].Text, "Let me think about this.")
	// The API was asked for summarized thinking.
	reqs := h.api.Requests()
	require.NotEmpty(t, reqs)
	require.Contains(t, string(reqs[len(reqs)-1].Raw), `"summarized"`)
	h.close(s)
}

func TestBashToolOutput(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[bash echo hi-there]")
	// A read-only echo is auto-approved by the CLI; should it ask anyway, allow it.
	go h.allowAll(s, turn)
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	started := h.rec.wait(t, time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.ToolStarted })
	require.Equal(t, "Bash", started.Name)
	done := h.rec.wait(t, time.Second, func(ev activity.Event) bool {
		return ev.Kind == activity.ToolCompleted && ev.ToolUseID == started.ToolUseID
	})
	require.Contains(t, done.Output, "hi-there")
	h.close(s)
}

func TestQueuedPromptRunsAfterTheRunningTurn(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	first := h.exec(s, "[slow] first")
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == first && ev.Kind == activity.MessageDelta })
	second := h.exec(s, "second")
	third := h.exec(s, "third")

	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(third).Kind)
	var order []string
	for _, ev := range h.rec.all(nil) {
		if ev.Kind == activity.TurnStarted || ev.Terminal() {
			order = append(order, string(ev.Kind)+":"+map[string]string{first: "1", second: "2", third: "3"}[ev.Turn])
		}
	}
	require.Equal(t, []string{"turn.started:1", "turn.completed:1", "turn.started:2", "turn.completed:2",
		"turn.started:3", "turn.completed:3"}, order)
	// Every prompt is announced as queued before it starts, so a window that connects later sees the queue.
	for _, turn := range []string{first, second, third} {
		events := h.rec.all(ofTurn(turn))
		require.Equal(t, activity.TurnQueued, events[0].Kind)
		require.Equal(t, activity.TurnStarted, events[1].Kind)
	}
	replies := h.rec.all(func(ev activity.Event) bool { return ev.Kind == activity.MessageCompleted && ev.Role == "assistant" })
	var texts []string
	for _, r := range replies {
		texts = append(texts, r.Text)
	}
	require.Contains(t, texts, "You said: second")
	require.Contains(t, texts, "You said: third")
	h.close(s)
}

func TestCancelMidStreamThenNextPrompt(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[slow] take your time")
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.MessageDelta })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	disposition, err := s.Cancel(ctx, turn)
	require.NoError(t, err)
	require.Equal(t, "interrupted", disposition.String())
	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCanceled, end.Kind, "%+v", end)
	require.Len(t, h.rec.all(func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() }), 1,
		"a turn ends exactly once")

	next := h.exec(s, "are you still there")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind)
	h.close(s)
}

func TestCancelQueuedTurnIsDequeued(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	running := h.exec(s, "[slow] long")
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == running && ev.Kind == activity.MessageDelta })
	queued := h.exec(s, "never mind")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	disposition, err := s.Cancel(ctx, queued)
	require.NoError(t, err)
	require.Equal(t, "dequeued", disposition.String())
	end := h.waitTurnEnd(queued)
	require.Equal(t, activity.TurnCanceled, end.Kind)
	require.Empty(t, h.rec.all(func(ev activity.Event) bool { return ev.Turn == queued && ev.Kind == activity.TurnStarted }))
	_, err = s.Cancel(ctx, running)
	require.NoError(t, err)
	require.Equal(t, activity.TurnCanceled, h.waitTurnEnd(running).Kind)
	h.close(s)
}
