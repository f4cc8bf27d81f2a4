package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// streamedModels are the models the API was asked to stream with (a turn's calls, not set_model's probes).
func (h *harness) streamedModels() map[string]bool {
	out := map[string]bool{}
	for _, r := range h.api.Requests() {
		if r.Stream {
			out[r.Model] = true
		}
	}
	return out
}

// The model shown is the model running: a new session knows the model the CLI runs before its first prompt, a
// switch clears it (the label says nothing of the model behind it) until the CLI reports the new one — before the
// next turn — and that is the model the next turn's API calls use.
func TestEffectiveModelIsReportedBeforeTheFirstPromptAndAfterEachSwitch(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	of := func(kind activity.Kind) func(activity.Event) bool {
		return func(ev activity.Event) bool { return ev.Session == s.ID() && ev.Kind == kind }
	}
	// The context usage read after opening names the model; its report comes just before the usage.
	usage := h.rec.wait(t, 60*time.Second, of(activity.ContextUpdated))
	reports := h.rec.all(func(ev activity.Event) bool { return of(activity.ModelResolved)(ev) && ev.Seq < usage.Seq })
	require.Len(t, reports, 1, "the CLI's model reported with the first context usage")
	opened := reports[0]
	require.True(t, strings.HasPrefix(opened.Model, "claude-"), "the CLI's model id, not a label: %q", opened.Model)
	require.Empty(t, h.rec.all(of(activity.TurnStarted)), "reported before any prompt")
	require.Empty(t, h.streamedModels(), "without asking the API anything")
	require.Equal(t, opened.Model, s.State().EffectiveModel)

	turn := h.exec(s, "First prompt")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	require.Equal(t, map[string]bool{opened.Model: true}, h.streamedModels(), "the first turn ran on the model reported")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, s.SetModel(ctx, "sonnet"))
	switched := h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool {
		return of(activity.SessionUpdated)(ev) && ev.Model == "sonnet"
	})
	report := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool {
		return of(activity.ModelResolved)(ev) && ev.Seq > switched.Seq
	})
	require.Contains(t, report.Model, "sonnet")
	require.NotEqual(t, opened.Model, report.Model)
	require.Len(t, h.rec.all(of(activity.TurnStarted)), 1, "reported before the next turn")
	require.Equal(t, report.Model, s.State().EffectiveModel)

	// Back to Default: the default model is reported again, and the next turn runs on it.
	require.NoError(t, s.SetModel(ctx, "default"))
	back := h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool {
		return of(activity.SessionUpdated)(ev) && ev.Model == "default"
	})
	again := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool {
		return of(activity.ModelResolved)(ev) && ev.Seq > back.Seq
	})
	require.Equal(t, opened.Model, again.Model)
	before := len(h.api.Requests())
	turn = h.exec(s, "Second prompt")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	for _, r := range h.api.Requests()[before:] {
		if r.Stream {
			require.Equal(t, opened.Model, r.Model)
		}
	}
	h.close(s)
}
