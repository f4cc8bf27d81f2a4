package serve_test

import (
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// idleCountdowns stands in for the idle timers: a countdown runs out only when the test says so.
type idleCountdowns struct {
	mu  sync.Mutex
	due []*func()
}

func (c *idleCountdowns) afterFunc(_ time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	slot := &f
	c.due = append(c.due, slot)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := *slot != nil
		*slot = nil
		return was
	}
}

// runOut runs out every countdown still armed.
func (c *idleCountdowns) runOut() {
	c.mu.Lock()
	var due []func()
	for _, slot := range c.due {
		if *slot != nil {
			due = append(due, *slot)
			*slot = nil
		}
	}
	c.due = nil
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func waitState(c *wsClient, id string, state activity.SessionState) {
	c.t.Helper()
	c.waitEvent(func(ev activity.Event) bool {
		return ev.Session == id && ev.Kind == activity.SessionUpdated && ev.State == state
	})
}

// Two browsers see a session fall asleep and wake the same way, and either can wake it.
func TestTwoBrowsersSeeTheSameSleepAndWake(t *testing.T) {
	clock := &idleCountdowns{}
	s := startServedWith(t, func(cfg *session.Config) {
		cfg.Idle = time.Hour
		cfg.AfterFunc = clock.afterFunc
	})
	a, b := dial(t, s), dial(t, s)
	var snap console.Snapshot
	require.Nil(t, b.call("snapshot", map[string]any{}, &snap)) // b's subscription is in place
	require.Equal(t, 3600, snap.SessionIdleSeconds)

	var ref console.SessionRef
	require.Nil(t, a.call("startSession", map[string]any{"cwd": s.project, "permissionMode": "default"}, &ref))
	var turn console.PromptResult
	require.Nil(t, a.call("sendPrompt", map[string]any{"session": ref.Session, "prompt": "remember the word gamma"}, &turn))
	for _, c := range []*wsClient{a, b} {
		c.waitEvent(func(ev activity.Event) bool { return ev.Turn == turn.Turn && ev.Kind == activity.TurnCompleted })
	}

	clock.runOut()
	waitState(a, ref.Session, activity.SessionStateAsleep)
	waitState(b, ref.Session, activity.SessionStateAsleep)
	require.Nil(t, b.call("snapshot", map[string]any{}, &snap))
	require.Len(t, snap.Sessions, 1)
	require.Equal(t, activity.SessionStateAsleep, snap.Sessions[0].State)

	// The other browser's prompt wakes it; both see it wake and answer with its history.
	require.Nil(t, b.call("sendPrompt", map[string]any{"session": ref.Session, "prompt": "[recall]"}, &turn))
	for _, c := range []*wsClient{a, b} {
		waitState(c, ref.Session, activity.SessionStateWaking)
		waitState(c, ref.Session, activity.SessionStateAwake)
		done := c.waitEvent(func(ev activity.Event) bool {
			return ev.Turn == turn.Turn && ev.Kind == activity.MessageCompleted && ev.Role == "assistant"
		})
		require.Contains(t, done.Text, "remember the word gamma")
	}
	require.Nil(t, a.call("snapshot", map[string]any{}, &snap))
	require.Equal(t, activity.SessionStateAwake, snap.Sessions[0].State)

	// The idle setting is the host's: one browser sets it, the other reads it.
	var idle console.IdleParams
	require.Nil(t, a.call("setSessionIdle", map[string]any{"seconds": 0}, &idle))
	require.Nil(t, b.call("snapshot", map[string]any{}, &snap))
	require.Zero(t, snap.SessionIdleSeconds)
	e := a.call("setSessionIdle", map[string]any{"seconds": -5}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeBadRequest, e.Code)
}

// live counts the countdowns still armed.
func (c *idleCountdowns) live() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, slot := range c.due {
		if *slot != nil {
			n++
		}
	}
	return n
}

// Typing in an asleep session's composer wakes it before the prompt is sent, so the prompt finds it awake; typing
// in an awake one starts its idle countdown again.
func TestWakeSessionReadiesASessionForItsPrompt(t *testing.T) {
	clock := &idleCountdowns{}
	s := startServedWith(t, func(cfg *session.Config) {
		cfg.Idle = time.Hour
		cfg.AfterFunc = clock.afterFunc
	})
	c := dial(t, s)
	var ref console.SessionRef
	require.Nil(t, c.call("startSession", map[string]any{"cwd": s.project, "permissionMode": "default"}, &ref))
	var turn console.PromptResult
	require.Nil(t, c.call("sendPrompt", map[string]any{"session": ref.Session, "prompt": "remember the word delta"}, &turn))
	c.waitEvent(func(ev activity.Event) bool { return ev.Turn == turn.Turn && ev.Kind == activity.TurnCompleted })
	clock.runOut()
	waitState(c, ref.Session, activity.SessionStateAsleep)

	// The call returns once the session is awake again.
	require.Nil(t, c.call("wakeSession", map[string]any{"session": ref.Session}, nil))
	waitState(c, ref.Session, activity.SessionStateWaking)
	waitState(c, ref.Session, activity.SessionStateAwake)
	var snap console.Snapshot
	require.Nil(t, c.call("snapshot", map[string]any{}, &snap))
	require.Equal(t, activity.SessionStateAwake, snap.Sessions[0].State)
	require.Equal(t, 1, clock.live(), "the wake armed the idle countdown")

	// Awake: the countdown armed at the wake stops and a new one starts.
	armed := len(clock.due)
	require.Nil(t, c.call("wakeSession", map[string]any{"session": ref.Session}, nil))
	require.Len(t, clock.due, armed+1)
	require.Equal(t, 1, clock.live(), "the earlier countdown was stopped")

	// The prompt finds it awake (no second wake) and the woken claude has the conversation.
	require.Nil(t, c.call("sendPrompt", map[string]any{"session": ref.Session, "prompt": "[recall]"}, &turn))
	done := c.waitEvent(func(ev activity.Event) bool {
		require.False(t, ev.Session == ref.Session && ev.State == activity.SessionStateWaking, "the prompt woke the session again")
		return ev.Turn == turn.Turn && ev.Kind == activity.MessageCompleted && ev.Role == "assistant"
	})
	require.Contains(t, done.Text, "remember the word delta")

	require.Nil(t, c.call("closeSession", map[string]any{"session": ref.Session}, nil))
	e := c.call("wakeSession", map[string]any{"session": ref.Session}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeNotFound, e.Code)
}
