package session_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// sessionOpts asks for the default permission mode explicitly, so every Write reaches the permission prompt
// whatever mode a settings file would pick.
func sessionOpts() session.StartOptions {
	return session.StartOptions{PermissionMode: "default"}
}

// allowAll allows every permission request of the turn until it ends.
func (h *harness) allowAll(s *session.Session, turn string) {
	answered := map[string]bool{}
	for {
		for _, ev := range h.rec.all(ofTurn(turn)) {
			if ev.Terminal() {
				return
			}
			if ev.Kind == activity.PermissionRequested && !answered[ev.RequestID] {
				answered[ev.RequestID] = true
				h.answer(s, ev.RequestID, "allow", "")
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (h *harness) waitPermission(turn string) activity.Event {
	h.t.Helper()
	return h.rec.wait(h.t, 60*time.Second, func(ev activity.Event) bool {
		return ev.Turn == turn && ev.Kind == activity.PermissionRequested
	})
}

func TestWriteApproved(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[write approved.txt hello world]")
	req := h.waitPermission(turn)
	require.Equal(t, "Write", req.ToolName)
	require.True(t, h.answer(s, req.RequestID, "allow", ""))
	require.False(t, h.answer(s, req.RequestID, "deny", "too late"), "a second verdict changes nothing")

	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	data, err := os.ReadFile(filepath.Join(h.project, "approved.txt"))
	require.NoError(t, err)
	require.Equal(t, "hello world\n", string(data))

	settled := h.rec.all(func(ev activity.Event) bool {
		return ev.Kind == activity.PermissionSettled && ev.RequestID == req.RequestID
	})
	require.Len(t, settled, 1, "settled exactly once")
	require.Equal(t, "allow", settled[0].Verdict.String())
	done := h.rec.wait(t, time.Second, func(ev activity.Event) bool {
		return ev.Kind == activity.ToolCompleted && ev.ToolUseID == req.ToolUseID
	})
	require.Equal(t, "Write", done.Name)
	h.close(s)
}

func TestWriteDenied(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[write denied.txt secret]")
	req := h.waitPermission(turn)
	require.True(t, h.answer(s, req.RequestID, "deny", "Not in this folder, please"))
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind, "a denied tool still completes the turn")

	_, err := os.Stat(filepath.Join(h.project, "denied.txt"))
	require.True(t, os.IsNotExist(err), "the denied file must not exist")
	failed := h.rec.wait(t, time.Second, func(ev activity.Event) bool {
		return ev.Kind == activity.ToolFailed && ev.ToolUseID == req.ToolUseID
	})
	require.Contains(t, failed.Error, "Not in this folder, please")

	// The model received the denial as an error tool_result.
	var found bool
	for _, r := range h.api.Requests() {
		for _, tr := range r.LastToolResults() {
			if tr.ToolUseID == req.ToolUseID {
				found = true
				require.True(t, tr.IsError)
				require.Contains(t, tr.Content, "Not in this folder, please")
			}
		}
	}
	require.True(t, found, "no request carried the denied tool's result")
	h.close(s)
}

func TestAllowAlwaysIsNotAskedAgain(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	first := h.exec(s, "[write one.txt first]")
	req := h.waitPermission(first)
	require.NotEmpty(t, req.Suggestions, "the SDK offers rules to always allow")
	require.True(t, h.answer(s, req.RequestID, "allow_always", ""))
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)

	second := h.exec(s, "[write two.txt second]")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(second).Kind)
	require.Empty(t, h.rec.all(func(ev activity.Event) bool {
		return ev.Turn == second && ev.Kind == activity.PermissionRequested
	}), "the second Write must not be asked again")
	data, err := os.ReadFile(filepath.Join(h.project, "two.txt"))
	require.NoError(t, err)
	require.Equal(t, "second\n", string(data))
	h.close(s)
}

func TestCancelSettlesPendingPermissionAsDeny(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[write pending.txt x]")
	req := h.waitPermission(turn)
	_, err := s.Cancel(t.Context(), turn)
	require.NoError(t, err)
	settled := h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool {
		return ev.Kind == activity.PermissionSettled && ev.RequestID == req.RequestID
	})
	require.Equal(t, "deny", settled.Verdict.String())
	require.Equal(t, "interrupt", settled.By.String())
	require.Equal(t, activity.TurnCanceled, h.waitTurnEnd(turn).Kind)
	require.False(t, h.answer(s, req.RequestID, "allow", ""), "a verdict after the interrupt changes nothing")
	_, err = os.Stat(filepath.Join(h.project, "pending.txt"))
	require.True(t, os.IsNotExist(err))
	h.close(s)
}
