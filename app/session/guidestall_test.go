//go:build !windows

package session_test

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// Guidance to a Claude Code that stopped answering right after the turn was accepted, before its first output
// (SIGSTOP: the guidance's interrupt is never acknowledged). The results of a turn being steered are held until
// the interrupt is, so that wait must be bounded: the guide call fails, the turn ends turn.failed saying so, and
// the next prompt runs in a fresh query.
func TestGuidanceWhoseInterruptGoesUnansweredEndsTheTurn(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	gate := make(chan struct{})
	h.scriptWith(func(req *fakeapi.Request) (fakeapi.Reply, bool) {
		if !strings.Contains(req.LastUserText(), "[gated]") {
			return fakeapi.Reply{}, false
		}
		r := fakeapi.DefaultScript()(req)
		r.HoldContent = gate
		return r, true
	})
	defer close(gate)
	s := h.start(sessionOpts())
	first := h.exec(s, "remember the word sloe")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)
	turn := h.exec(s, "[gated] a long answer")
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnAccepted })
	pid := claudePID(t, s)
	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })

	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	_, _, err := s.Guide(ctx, "go short")
	require.Error(t, err)
	require.NotErrorIs(t, err, context.DeadlineExceeded, "the sidecar answers the guidance within its own bound")
	end := h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
	require.Equal(t, activity.TurnFailed, end.Kind, "%+v", end)
	require.Contains(t, end.Message, "did not take the guidance")
	require.False(t, testenv.Alive(pid), "the stopped claude is gone")
	require.Len(t, h.terminals(turn), 1)

	next := h.exec(s, "[recall] and now")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind)
	last := lastRequestWith(h, "and now")
	require.Contains(t, strings.Join(last.UserTexts(), " | "), "remember the word sloe")
	h.close(s)
}
