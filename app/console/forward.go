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
	Sessions(SessionsChange) error
}

// Forward is the one forwarding loop of every transport: it delivers each event from events and each change of
// host (nil: none) to p, in order per source, until ctx ends (its error), events is closed (nil) or p fails
// (p's error, so the transport can drop the connection).
func Forward(ctx context.Context, events <-chan activity.Event, host *HostState, p Pusher) error {
	var updates <-chan HostUpdate
	if host != nil {
		ch, stop := host.Subscribe()
		defer stop()
		updates = ch
	}
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			if err := p.Event(ev); err != nil {
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

func pushHost(p Pusher, u HostUpdate) error {
	if u.Auth != nil {
		if err := p.Auth(*u.Auth); err != nil {
			return err
		}
	}
	if u.Provision != nil {
		return p.Provision(*u.Provision)
	}
	if u.Sessions != nil {
		return p.Sessions(*u.Sessions)
	}
	return nil
}
