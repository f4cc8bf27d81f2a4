package session

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/activity"
)

// The session's background state follows the level signal, the goal and continuation turns: what sleeping a
// session (Busy) and baton exec (Working) read.
func TestBackgroundStateFollowsTasksGoalAndContinuations(t *testing.T) {
	s := &Session{}
	observe := func(ev activity.Event) {
		s.mu.Lock()
		s.observeBackground(ev)
		s.mu.Unlock()
	}
	require.False(t, s.BackgroundState().Busy())

	observe(activity.Event{Kind: activity.TasksUpdated, Tasks: []activity.BackgroundTask{
		{TaskID: "b1", TaskType: "local_bash", Description: "build"},
		{TaskID: "w", TaskType: "monitor", Description: "watch", Ambient: true},
	}})
	b := s.BackgroundState()
	require.Len(t, b.Tasks, 1, "ambient tasks are not activity")
	require.True(t, b.Busy())
	require.True(t, b.Working())
	observe(activity.Event{Kind: activity.TasksUpdated})
	require.False(t, s.BackgroundState().Busy())

	observe(activity.Event{Kind: activity.GoalUpdated, Goal: &activity.GoalState{Condition: "tests pass", Iterations: 1}})
	require.True(t, s.BackgroundState().Busy(), "a goal being pursued keeps the session busy")
	require.False(t, s.BackgroundState().Working(), "but exec does not wait on it: goals are pursued inside turns")
	observe(activity.Event{Kind: activity.GoalUpdated, Goal: &activity.GoalState{Condition: "tests pass", Met: true, Iterations: 2}})
	require.Nil(t, s.BackgroundState().Goal)

	observe(activity.Event{Kind: activity.TurnStarted, Turn: "c1", Origin: activity.TurnOriginTaskNotification})
	observe(activity.Event{Kind: activity.TurnStarted, Turn: "p1"})
	require.Equal(t, []string{"c1"}, s.BackgroundState().Continuations)
	require.True(t, s.BackgroundState().Working())
	s.mu.Lock()
	require.True(t, s.isContinuation("c1"))
	require.False(t, s.isContinuation("p1"))
	s.mu.Unlock()
	observe(activity.Event{Kind: activity.TurnCompleted, Turn: "c1"})
	require.False(t, s.BackgroundState().Working())
	s.mu.Lock()
	require.True(t, s.isContinuation("c1"), "its end must still write no receipt")
	s.mu.Unlock()

	observe(activity.Event{Kind: activity.TasksUpdated, Tasks: []activity.BackgroundTask{{TaskID: "b2", TaskType: "local_bash", Description: "x"}}})
	observe(activity.Event{Kind: activity.SessionClosed, Reason: "closed"})
	require.False(t, s.BackgroundState().Busy(), "a closed session runs nothing")
}
