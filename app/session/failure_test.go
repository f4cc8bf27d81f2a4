//go:build !windows

package session_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

func requireLinux(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("process checks read /proc")
	}
}

func TestSidecarKilledMidTurnFailsTheTurnAndLeavesOthersAlone(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	victim := h.start(sessionOpts())
	bystander := h.start(sessionOpts())

	slow := h.exec(victim, "[slow] streaming")
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == slow && ev.Kind == activity.MessageDelta })
	queued := h.exec(victim, "waiting behind it")

	claudes := testenv.ChildPIDs(victim.SidecarPID())
	killedAt := time.Now()
	require.NoError(t, syscall.Kill(victim.SidecarPID(), syscall.SIGKILL))
	defer testenv.WaitGone(t, claudes, 20*time.Second)
	// Within seconds, not a hang: both the running and the queued turn fail explicitly.
	for _, turn := range []string{slow, queued} {
		end := h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
		require.Equal(t, activity.TurnFailed, end.Kind)
		require.Equal(t, "sidecar_exited", end.Code)
		require.NotContains(t, end.Message, "at ", "no stack traces or stderr in user-visible errors")
	}
	h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool {
		return ev.Session == victim.ID() && ev.Kind == activity.SessionClosed && ev.Reason == "sidecar_exited"
	})
	t.Logf("turns failed %s after the kill", time.Since(killedAt).Round(time.Millisecond))
	_, err := victim.Exec(context.Background(), "anyone?")
	require.Error(t, err)

	turn := h.exec(bystander, "still fine?")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind, "another session is unaffected")
	h.close(bystander)
}

func TestSidecarKilledWhileAskingSettlesThePermission(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[write never.txt x]")
	req := h.waitPermission(turn)
	claudes := testenv.ChildPIDs(s.SidecarPID())
	require.NoError(t, syscall.Kill(s.SidecarPID(), syscall.SIGKILL))
	defer testenv.WaitGone(t, claudes, 20*time.Second)
	settled := h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool {
		return ev.Kind == activity.PermissionSettled && ev.RequestID == req.RequestID
	})
	require.Equal(t, "deny", settled.Verdict.String())
	require.Equal(t, "sidecar_exited", settled.By.String())
	require.Equal(t, activity.TurnFailed, h.waitTurnEnd(turn).Kind)
}

func TestCloseAcknowledgesAfterShutdownAndLeavesNoProcess(t *testing.T) {
	requireLinux(t)
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "hello")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	sidecarPID := s.SidecarPID()
	claudes := testenv.ChildPIDs(sidecarPID)
	require.NotEmpty(t, claudes, "the sidecar runs a claude child while the session is open")

	h.close(s)
	require.False(t, testenv.Alive(sidecarPID), "the sidecar was reaped")
	for _, pid := range claudes {
		require.False(t, testenv.Alive(pid), "claude %d is still running after close", pid)
	}
	closed := h.rec.all(func(ev activity.Event) bool { return ev.Session == s.ID() && ev.Kind == activity.SessionClosed })
	require.Len(t, closed, 1)
	require.Equal(t, "closed", closed[0].Reason.String())
}
