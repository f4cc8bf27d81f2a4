//go:build !windows

package session_test

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// Claude Code killed under an open session (idle, or mid-turn): the sidecar stays up and the session stays open.
// The turn that was running ends with a terminal event, and the next prompt simply works: a fresh query resuming
// the same session, whose API request carries the earlier turns.
func TestClaudeKilledLeavesTheSessionUsable(t *testing.T) {
	requireLinux(t)
	for _, midTurn := range []bool{false, true} {
		name := "idle"
		if midTurn {
			name = "mid-turn"
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			s := h.start(sessionOpts())
			first := h.exec(s, "remember the word medlar")
			require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(first).Kind)

			var running string
			if midTurn {
				running = h.exec(s, "[hold] about to lose claude")
				h.waitDelta(running)
			}
			pid := claudePID(t, s)
			require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
			testenv.WaitGone(t, []int{pid}, 20*time.Second)
			if midTurn {
				end := h.waitTurnEnd(running)
				require.Equal(t, activity.TurnFailed, end.Kind, "%+v", end)
				require.NotContains(t, end.Message, "at ", "no stack traces in user-visible errors")
				h.release()
			}

			next := h.exec(s, "[recall] still with me")
			nextEnd := h.waitTurnEnd(next)
			require.Equal(t, activity.TurnCompleted, nextEnd.Kind, "%+v", nextEnd)
			reply := h.rec.wait(t, time.Second, func(ev activity.Event) bool {
				return ev.Turn == next && ev.Kind == activity.MessageCompleted && ev.Role == "assistant"
			})
			require.Contains(t, reply.Text, "remember the word medlar", "the fresh query resumed the conversation")
			last := lastRequestWith(h, "still with me")
			require.Contains(t, strings.Join(last.UserTexts(), " | "), "remember the word medlar")
			require.NotEqual(t, pid, claudePID(t, s), "a fresh claude runs the next prompt")
			require.Empty(t, h.rec.all(func(ev activity.Event) bool { return ev.Session == s.ID() && ev.Kind == activity.SessionClosed }),
				"the session never closed")
			if midTurn {
				require.Len(t, h.terminals(running), 1, "the killed turn ended exactly once")
			}
			h.close(s)
		})
	}
}

// lastRequestWith is the last streaming API request whose last user text contains text.
func lastRequestWith(h *harness, text string) fakeapi.Request {
	var last fakeapi.Request
	for _, r := range h.api.Requests() {
		if r.Stream && strings.Contains(r.LastUserText(), text) {
			last = r
		}
	}
	return last
}
