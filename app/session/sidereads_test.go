package session_test

import (
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// The side reads reach the host as valid events: the palette, the models and the context usage once the session
// is open, the context usage again after each turn, and the title once the transcript has one.
func TestSideReadsArriveAfterOpeningAndAfterEachTurn(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	of := func(kind activity.Kind) func(activity.Event) bool {
		return func(ev activity.Event) bool { return ev.Session == s.ID() && ev.Kind == kind }
	}
	commands := h.rec.wait(t, 30*time.Second, of(activity.CommandsUpdated))
	require.NotEmpty(t, commands.Commands)
	models := h.rec.wait(t, 30*time.Second, of(activity.ModelsUpdated))
	values := make([]string, len(models.Models))
	for i, m := range models.Models {
		values[i] = m.Value
	}
	require.Contains(t, values, "default")
	opened := h.rec.wait(t, 30*time.Second, of(activity.ContextUpdated))
	require.Positive(t, *opened.MaxTokens)
	require.Positive(t, *opened.TotalTokens)
	require.NotNil(t, opened.Percentage)

	turn := h.exec(s, "What is this session called?")
	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCompleted, end.Kind)
	after := h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool {
		return of(activity.ContextUpdated)(ev) && ev.Seq > end.Seq
	})
	require.Empty(t, after.Turn, "side reads belong to the session, not to a turn")
	title := h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool {
		return of(activity.SessionUpdated)(ev) && ev.Title != ""
	})
	require.Equal(t, "What is this session called?", title.Title)
	require.Empty(t, h.rec.all(of(activity.ProtocolError)), "every side-read event passed validation")
	h.close(s)
}
