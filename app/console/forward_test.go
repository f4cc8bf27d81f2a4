package console

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// chanPusher hands every push to the test as it happens (no polling, no sleeps).
type chanPusher struct {
	got  chan string
	fail error
}

func (c chanPusher) Event(ev activity.Event) error {
	c.got <- "event:" + ev.Kind.String()
	return c.fail
}
func (c chanPusher) Auth(a AuthState) error {
	c.got <- "auth:" + string(a.Status)
	return c.fail
}
func (c chanPusher) Provision(p ProvisionState) error {
	c.got <- "provision:" + p.State.String()
	return c.fail
}
func (c chanPusher) Index(s IndexState) error {
	c.got <- "index:" + s.State.String()
	return c.fail
}
func (c chanPusher) Terminal(TerminalOutput) error { return nil }

func (c chanPusher) Changes(u ChangesUpdate) error {
	c.got <- "changes " + u.Session
	return c.fail
}

func (c chanPusher) Sessions(SessionsChange) error {
	c.got <- "sessions"
	return c.fail
}

// One loop forwards events in order and host state as it changes, for the window and browser mode alike.
func TestForwardDeliversEventsAndHostState(t *testing.T) {
	host := NewHostState()
	events := make(chan activity.Event)
	p := chanPusher{got: make(chan string)}
	done := make(chan error, 1)
	go func() { done <- Forward(context.Background(), events, host, p) }()
	// The first event is delivered only once Forward runs, and it subscribes to the host before reading events.
	events <- activity.Event{Kind: activity.TurnStarted}
	require.Equal(t, "event:turn.started", <-p.got)
	host.SetProvision(ProvisionState{State: "ready"})
	require.Equal(t, "provision:ready", <-p.got)
	host.SessionsChanged()
	require.Equal(t, "sessions", <-p.got)
	host.SetIndex(IndexState{State: IndexStatusBuilding, FilesTotal: 3})
	require.Equal(t, "index:building", <-p.got)
	events <- activity.Event{Kind: activity.TurnCompleted}
	require.Equal(t, "event:turn.completed", <-p.got)
	close(events)
	require.NoError(t, <-done)
}

// Forwarding subscribes to the host when called, not when its loop first runs: a change published between the
// two (after a snapshot the console read, say) is still pushed. The loop starts only after the change here.
func TestForwardingMissesNoHostChangeBeforeItsLoopRuns(t *testing.T) {
	host := NewHostState()
	events := make(chan activity.Event)
	p := chanPusher{got: make(chan string, 1)}
	run := Forwarding(events, host, p)
	host.SetAuth(AuthState{Status: "signed_in"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	select {
	case got := <-p.got:
		require.Equal(t, "auth:signed_in", got)
	case <-time.After(10 * time.Second): // only a failing run waits this out
		t.Fatal("the change published before the loop ran was never pushed")
	}
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

// A transport that cannot write ends the loop with its error, so the connection is dropped.
func TestForwardStopsWhenThePusherFails(t *testing.T) {
	events := make(chan activity.Event, 1)
	events <- activity.Event{Kind: activity.TurnStarted}
	boom := errors.New("connection gone")
	p := chanPusher{got: make(chan string, 1), fail: boom}
	require.ErrorIs(t, Forward(context.Background(), events, nil, p), boom)
}

// batchPusher records each push's size.
type batchPusher struct {
	chanPusher
	batches chan []activity.Event
}

func (b batchPusher) Events(evs []activity.Event) error {
	b.batches <- evs
	return nil
}

// Events already waiting go out in one push, in order; a lone event goes out alone.
func TestForwardBatchesWaitingEvents(t *testing.T) {
	events := make(chan activity.Event, 3)
	for _, k := range []activity.Kind{activity.TurnStarted, activity.MessageDelta, activity.TurnCompleted} {
		events <- activity.Event{Kind: k}
	}
	p := batchPusher{chanPusher: chanPusher{got: make(chan string, 1)}, batches: make(chan []activity.Event, 1)}
	done := make(chan error, 1)
	go func() { done <- Forward(context.Background(), events, nil, p) }()
	batch := <-p.batches
	require.Equal(t, []activity.Kind{activity.TurnStarted, activity.MessageDelta, activity.TurnCompleted},
		[]activity.Kind{batch[0].Kind, batch[1].Kind, batch[2].Kind})
	events <- activity.Event{Kind: activity.TurnQueued}
	require.Equal(t, "event:turn.queued", <-p.got)
	close(events)
	require.NoError(t, <-done)
}
