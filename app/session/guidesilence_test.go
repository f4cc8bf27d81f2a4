package session_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// Guidance whose answer never begins (issue 33, item 9): the interrupt is acknowledged and the guidance sent, but
// nothing of the guided response reaches the turn; here the scripted API holds that request before its first
// byte, past the sidecar's answer budget (shortened to 3 s). Unbounded, the turn hung with no output and no
// terminal event; now the sidecar stops it and ends it turn.failed, once, and the next prompt runs.
func TestGuidanceWhoseAnswerNeverBeginsEndsTheTurn(t *testing.T) {
	h := newHarnessWith(t, func(cfg *session.Config) {
		cfg.Env = append(cfg.Env, "BATON_GUIDE_ANSWER_BUDGET_MS=3000")
	})
	gate, silent := make(chan struct{}), make(chan struct{})
	guidedAsked := make(chan struct{})
	var once sync.Once
	h.scriptWith(func(req *fakeapi.Request) (fakeapi.Reply, bool) {
		last := req.LastUserText()
		r := fakeapi.DefaultScript()(req)
		switch {
		case strings.Contains(last, "go short"):
			r.HoldStart = silent // the guided request: no byte comes back
			once.Do(func() { close(guidedAsked) })
		case strings.Contains(last, "[gated]"):
			r.HoldContent = gate // the first response: begun (the turn is accepted), no content yet
		default:
			return fakeapi.Reply{}, false
		}
		return r, true
	})
	t.Cleanup(func() { close(silent); close(gate) })
	s := h.start(sessionOpts())
	turn := h.exec(s, "[gated] a long answer")
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnAccepted })

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	steered, guided, err := s.Guide(ctx, "go short")
	require.NoError(t, err)
	require.True(t, guided)
	require.Equal(t, turn, steered)
	select {
	case <-guidedAsked:
	case <-time.After(60 * time.Second):
		t.Fatal("the guided request never reached the API")
	}

	end := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
	require.Equal(t, activity.TurnFailed, end.Kind, "%+v", end)
	require.Contains(t, end.Message, "no answer to the guidance")
	require.Len(t, h.terminals(turn), 1, "the guided turn ends exactly once")

	next := h.exec(s, "and after that")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(next).Kind, "the session goes on")
	require.Len(t, h.terminals(turn), 1, "nothing of the stopped turn comes later")
	h.close(s)
}
