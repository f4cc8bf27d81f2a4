package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

func assistantTexts(events []activity.Event) []string {
	var out []string
	for _, ev := range events {
		if ev.Kind == activity.MessageCompleted && ev.Role == "assistant" {
			out = append(out, ev.Text)
		}
	}
	return out
}

func TestResumeKeepsIDAndForkGetsANewOne(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	id := s.ID()
	turn := h.exec(s, "remember the word alpha")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	h.close(s)

	resumed := h.start(session.StartOptions{Resume: id, PermissionMode: "default"})
	require.Equal(t, id, resumed.ID())
	started := h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool {
		return ev.Kind == activity.SessionStarted && ev.Session == id && ev.Resumed != nil && *ev.Resumed
	})
	require.Equal(t, h.project, started.Cwd)
	turn = h.exec(resumed, "[recall]")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	require.Contains(t, assistantTexts(h.rec.all(ofTurn(turn))), "Earlier you said: remember the word alpha")
	h.close(resumed)

	fork := h.start(session.StartOptions{ForkFrom: id, PermissionMode: "default"})
	require.NotEqual(t, id, fork.ID())
	turn = h.exec(fork, "[recall] from the fork")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	recalled := assistantTexts(h.rec.all(ofTurn(turn)))
	require.Len(t, recalled, 1)
	require.Contains(t, recalled[0], "remember the word alpha")
	h.close(fork)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := h.m.ListSessions(ctx, "", 0)
	require.NoError(t, err)
	ids := map[string]bool{}
	for _, info := range list {
		ids[info.Session] = true
	}
	require.True(t, ids[id], "the original session is listed")
	require.True(t, ids[fork.ID()], "the fork is listed under its new id")
	require.Equal(t, fork.ID(), list[0].Session, "newest first")
}

// History is read back through the same mapper as live events: the lasting events of a session come out the
// same, apart from ids of turns and times.
func TestHistoryMapsTheSameAsLive(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[think] first question")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	turn = h.exec(s, "[bash echo from-history]")
	go h.allowAll(s, turn)
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	h.close(s)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	page, err := h.m.History(ctx, s.ID(), "", nil, 0)
	require.NoError(t, err)
	history := page.Events
	require.NotEmpty(t, history)
	require.Equal(t, 0, page.Start)
	require.Equal(t, len(history), page.Total)

	// Pages read back from the newest join up to the whole history (each read maps anew, so times differ).
	untimed := func(events []activity.Event) []activity.Event {
		out := make([]activity.Event, len(events))
		for i, ev := range events {
			ev.Time = time.Time{}
			out[i] = ev
		}
		return out
	}
	newest, err := h.m.History(ctx, s.ID(), "", nil, 3)
	require.NoError(t, err)
	require.Len(t, newest.Events, 3)
	require.Equal(t, page.Total-3, newest.Start)
	require.Equal(t, untimed(history[len(history)-3:]), untimed(newest.Events))
	older, err := h.m.History(ctx, s.ID(), "", &newest.Start, 3)
	require.NoError(t, err)
	require.Equal(t, untimed(history[newest.Start-3:newest.Start]), untimed(older.Events))

	type row struct {
		Kind                 activity.Kind
		Role, Text, ToolName string
		ToolUseID, Output    string
	}
	project := func(events []activity.Event) []row {
		var out []row
		for _, ev := range events {
			switch ev.Kind {
			case activity.MessageCompleted, activity.ToolStarted, activity.ToolCompleted, activity.ToolFailed:
				out = append(out, row{ev.Kind, ev.Role.String(), ev.Text, ev.Name, ev.ToolUseID, ev.Output})
			default:
				// Only what the transcript keeps is compared.
			}
		}
		return out
	}
	live := project(h.rec.all(func(ev activity.Event) bool { return ev.Session == s.ID() }))
	require.NotEmpty(t, live)
	require.Equal(t, live, project(history))
	for _, ev := range history {
		require.False(t, ev.Ephemeral, "history never replays stream pieces")
	}
}
