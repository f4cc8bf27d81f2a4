//go:build !windows

package session_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// A session is shown closed (its session.closed event) before its sidecar has gone. A prompt sent right then,
// which resumes the session, waits for the old process to end instead of failing "already open". The old sidecar
// is stopped (SIGSTOP) the moment session.closed arrives, so that moment lasts until the host's close grace runs
// out and it kills the process: without the wait, the resume fails every time.
func TestAResumeRightAfterCloseWaitsForTheClosingSession(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s := h.start(sessionOpts())
	first := h.exec(s, "remember the word quince")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)
	oldSidecar := s.SidecarPID()
	require.NotZero(t, oldSidecar)

	closed := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		closed <- s.Close(ctx)
	}()
	h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool {
		return ev.Session == s.ID() && ev.Kind == activity.SessionClosed
	})
	// Gone already (ESRCH) only shortens the moment; the host kills a stopped sidecar after its grace.
	_ = syscall.Kill(oldSidecar, syscall.SIGSTOP)

	resumed := h.start(session.StartOptions{Resume: s.ID(), PermissionMode: "default"})
	require.NoError(t, <-closed)
	require.Equal(t, s.ID(), resumed.ID())
	require.NotEqual(t, oldSidecar, resumed.SidecarPID(), "a new sidecar runs the resumed session")

	next := h.exec(resumed, "[recall] what was the word")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind)
	reply := h.rec.wait(t, time.Second, func(ev activity.Event) bool {
		return ev.Turn == next && ev.Kind == activity.MessageCompleted && ev.Role == "assistant"
	})
	require.Contains(t, reply.Text, "remember the word quince", "the resumed session has its conversation")
	h.close(resumed)
}
