package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

func (h *harness) cancel(s *session.Session, turn string, budgets session.CancelBudgets) protocol.CancelReply {
	h.t.Helper()
	rep, err := s.Cancel(context.Background(), turn, budgets)
	require.NoError(h.t, err)
	return rep
}

func (h *harness) waitDelta(turn string) {
	h.t.Helper()
	h.rec.wait(h.t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.MessageDelta })
}

func (h *harness) terminals(turn string) []activity.Event {
	return h.rec.all(func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
}

// claudePID is the session's claude child (the sidecar's only child process).
func claudePID(t *testing.T, s *session.Session) int {
	t.Helper()
	for _, pid := range testenv.ChildPIDs(s.SidecarPID()) {
		exe, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
		if strings.Contains(filepath.Base(exe), "claude") {
			return pid
		}
	}
	t.Fatalf("the sidecar %d has no claude child", s.SidecarPID())
	return 0
}

func TestCancelDispositions(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())

	done := h.exec(s, "quick one")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(done).Kind)
	rep := h.cancel(s, done, session.DefaultCancelBudgets)
	require.Equal(t, protocol.CancelReply{Disposition: "mismatch", Turn: done, Phase: "finished"}, rep,
		"a finished turn is not the one running")

	rep = h.cancel(s, "no-such-turn", session.DefaultCancelBudgets)
	require.Equal(t, protocol.CancelReply{Disposition: "absent", Turn: "no-such-turn", Phase: "none"}, rep)
	rep = h.cancel(s, "", session.DefaultCancelBudgets)
	require.Equal(t, protocol.CancelReply{Disposition: "absent", Phase: "none"}, rep, "nothing runs")

	running := h.exec(s, "[hold] long")
	h.waitDelta(running)
	queued := h.exec(s, "never mind")
	rep = h.cancel(s, queued, session.DefaultCancelBudgets)
	require.Equal(t, protocol.CancelReply{Disposition: "pre_accept", Turn: queued, Phase: "queued"}, rep)
	end := h.waitTurnEnd(queued)
	require.Equal(t, activity.TurnCanceled, end.Kind)
	require.Equal(t, activity.CanceledDispositionPreAccept, end.Disposition)
	require.Empty(t, h.rec.all(func(ev activity.Event) bool { return ev.Turn == queued && ev.Kind == activity.TurnStarted }))

	rep = h.cancel(s, running, session.DefaultCancelBudgets)
	require.Equal(t, protocol.CancelReply{Disposition: "provider_active", Turn: running, Phase: "dispatched", Forced: false}, rep)
	end = h.waitTurnEnd(running)
	require.Equal(t, activity.TurnCanceled, end.Kind)
	require.Equal(t, activity.CanceledDispositionProviderActive, end.Disposition)
	require.NotNil(t, end.Forced)
	require.False(t, *end.Forced)
	require.Len(t, h.terminals(running), 1, "a turn ends exactly once")
	h.release() // the held stream belongs to the revoked query; nothing of it may reach the turn any more
	h.close(s)
}

func TestCancelMidStreamThenNextPromptSeesEarlierTurns(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	first := h.exec(s, "remember the word apricot")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)
	turn := h.exec(s, "[hold] take your time")
	h.waitDelta(turn)
	rep := h.cancel(s, turn, session.DefaultCancelBudgets)
	require.Equal(t, activity.CancelDispositionProviderActive, rep.Disposition)
	require.False(t, rep.Forced)
	h.release()

	next := h.exec(s, "[recall] are you still there")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind)
	reply := h.rec.wait(t, time.Second, func(ev activity.Event) bool {
		return ev.Turn == next && ev.Kind == activity.MessageCompleted && ev.Role == "assistant"
	})
	require.Contains(t, reply.Text, "remember the word apricot", "the fresh query resumed the conversation")
	require.Len(t, h.terminals(turn), 1)
	h.close(s)
}

// The user-visible failure this protocol exists for: Claude Code stopped dead mid-stream. The cancel must come
// back within its budgets, force the stop, leave no process of that query behind, and the session goes on.
func TestCancelOfAStoppedClaudeForcesWithinBudgets(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	first := h.exec(s, "remember the word quince")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)
	turn := h.exec(s, "[hold] stall here")
	h.waitDelta(turn)
	pid := claudePID(t, s)
	testenv.Freeze(t, pid)

	budgets := session.CancelBudgets{Interrupt: time.Second, Drain: time.Second}
	began := time.Now()
	rep := h.cancel(s, turn, budgets)
	require.Equal(t, protocol.CancelReply{Disposition: "provider_active", Turn: turn, Phase: "dispatched", Forced: true}, rep)
	end := h.waitTurnEnd(turn)
	took := time.Since(began)
	require.Equal(t, activity.TurnCanceled, end.Kind)
	require.True(t, end.Forced != nil && *end.Forced, "%+v", end)
	require.Less(t, took, budgets.Interrupt+budgets.Drain+time.Second, "turn.canceled within the budgets + 1 s")
	require.False(t, testenv.Alive(pid), "the stopped claude of the revoked query is gone")
	h.release()

	next := h.exec(s, "[recall] and now")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind)
	var last fakeapi.Request
	for _, r := range h.api.Requests() {
		if r.Stream && strings.Contains(r.LastUserText(), "and now") {
			last = r
		}
	}
	require.Contains(t, strings.Join(last.UserTexts(), " | "), "remember the word quince",
		"the next prompt's API request carries the earlier turns")
	require.Len(t, h.terminals(turn), 1)
	h.close(s)
}

// A cancel racing the turn's natural end, at several points of the turn: whichever wins, the turn ends once.
func TestCancelRacingTheNaturalEndEndsEachTurnOnce(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	points := []activity.Kind{activity.TurnStarted, activity.MessageDelta, activity.MessageCompleted, activity.UsageUpdated}
	var turns []string
	for i := 0; i < 12; i++ {
		turn := h.exec(s, "race "+strconv.Itoa(i))
		turns = append(turns, turn)
		at := points[i%len(points)]
		h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && (ev.Kind == at || ev.Terminal()) })
		rep := h.cancel(s, turn, session.DefaultCancelBudgets)
		end := h.waitTurnEnd(turn)
		switch rep.Disposition {
		case activity.CancelDispositionProviderActive, activity.CancelDispositionPreAccept:
			// pre_accept: the turn had started but waited for the fresh query the previous cancel made necessary.
			require.Equal(t, activity.TurnCanceled, end.Kind, "iteration %d", i)
			require.Equal(t, string(rep.Disposition), string(end.Disposition), "iteration %d", i)
		case activity.CancelDispositionMismatch:
			require.Equal(t, activity.TurnCompleted, end.Kind, "iteration %d", i)
		default:
			t.Fatalf("iteration %d: disposition %q", i, rep.Disposition)
		}
	}
	last := h.exec(s, "after the races")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(last).Kind)
	for i, turn := range turns {
		require.Len(t, h.terminals(turn), 1, "turn %d ends exactly once", i)
	}
	h.close(s)
}
