package session

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/activity"
)

// The effective model is only ever what the CLI reported: a switch clears it (the picked label says nothing of the
// model behind it, and the one reported before no longer runs) until the next report.
func TestSwitchingTheModelClearsTheEffectiveModelUntilTheCLIReports(t *testing.T) {
	s := &Session{pendingPerms: map[string]string{}}
	s.observe(activity.Event{Kind: activity.ModelResolved, Model: "claude-opus-5-5"})
	require.Equal(t, "claude-opus-5-5", s.State().EffectiveModel)

	s.observe(activity.Event{Kind: activity.SessionUpdated, Title: "a title"})
	require.Equal(t, "claude-opus-5-5", s.State().EffectiveModel, "other updates leave it")

	s.observe(activity.Event{Kind: activity.SessionUpdated, Model: "sonnet"})
	require.Empty(t, s.State().EffectiveModel, "unknown until the CLI reports")

	s.observe(activity.Event{Kind: activity.ModelResolved, Model: "claude-sonnet-5-5"})
	require.Equal(t, "claude-sonnet-5-5", s.State().EffectiveModel)

	s.observe(activity.Event{Kind: activity.SessionUpdated, Model: "default"})
	require.Empty(t, s.State().EffectiveModel, "back to Default too")
}
