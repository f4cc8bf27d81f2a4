package console

import (
	"context"

	"github.com/baton-console/baton/app/activity"
)

// Pusher carries what the host pushes to one console unasked, whatever the transport: Wails events in the
// window, WebSocket messages in browser mode (API.md, "Events").
type Pusher interface {
	Event(activity.Event) error
	Auth(AuthState) error
	Provision(ProvisionState) error
	Index(IndexState) error
	Sessions(SessionsChange) error
	// Changes carries an open session's new change counts (changesfeed.go).
	Changes(ChangesUpdate) error
	// Terminal carries one terminal's output (TerminalFeed, terminal.go).
	Terminal(TerminalOutput) error
}

// BatchPusher is a Pusher that can carry several events in one push (the WebSocket's `events` message). Forward
// hands it every event already waiting, so a streaming reply's thousands of deltas do not cost a write each.
type BatchPusher interface {
	Pusher
	Events([]activity.Event) error
}

// maxBatch bounds one batched push, so one message stays small however far a client fell behind.
const maxBatch = 512

// Forward is the one forwarding loop of every transport: it delivers each event from events and each change of
// host (nil: none) to p, in order per source, until ctx ends (its error), events is closed (nil) or p fails
// (p's error, so the transport can drop the connection).
func Forward(ctx context.Context, events <-chan activity.Event, host *HostState, p Pusher) error {
	return Forwarding(events, host, p)(ctx)
}

// Forwarding is Forward with the host subscribed at once: a transport calls it before it serves the console's
// calls and runs the loop it returns in the background, so a change of host published after a snapshot the
// console asks for next is never missed (subscribed in the loop, it could come between the two).
func Forwarding(events <-chan activity.Event, host *HostState, p Pusher) func(ctx context.Context) error {
	var updates <-chan HostUpdate
	stop := func() {}
	if host != nil {
		updates, stop = host.Subscribe()
	}
	return func(ctx context.Context) error {
		defer stop()
		return forward(ctx, events, updates, p)
	}
}

func forward(ctx context.Context, events <-chan activity.Event, updates <-chan HostUpdate, p Pusher) error {
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			if err := push(p, ev, events); err != nil {
				return err
			}
		case u := <-updates:
			if err := pushHost(p, u); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// push delivers ev, and to a BatchPusher every event already waiting behind it, in order. A lone event goes out
// as a single push.
func push(p Pusher, ev activity.Event, events <-chan activity.Event) error {
	bp, ok := p.(BatchPusher)
	if !ok {
		return p.Event(ev)
	}
	batch := []activity.Event{ev}
	open := true
	for open && len(batch) < maxBatch {
		select {
		case next, more := <-events:
			if !more {
				open = false
				break
			}
			batch = append(batch, next)
		default:
			open = false
		}
	}
	if len(batch) == 1 {
		return p.Event(ev)
	}
	return bp.Events(batch)
}

func pushHost(p Pusher, u HostUpdate) error {
	if u.Auth != nil {
		if err := p.Auth(*u.Auth); err != nil {
			return err
		}
	}
	if u.Provision != nil {
		return p.Provision(*u.Provision)
	}
	if u.Index != nil {
		return p.Index(*u.Index)
	}
	if u.Sessions != nil {
		return p.Sessions(*u.Sessions)
	}
	if u.Changes != nil {
		return p.Changes(*u.Changes)
	}
	return nil
}
