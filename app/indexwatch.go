package app

import (
	"github.com/baton-console/baton/app/cli"
	"github.com/baton-console/baton/app/console"
)

// indexWatch hands the terminal front end the index's progress from the host's state, which cli must not import
// (the console is another front end, not a layer under it).
type indexWatch struct{ state *console.HostState }

// SubscribeIndex forwards each index update; unsubscribe forwards what is still waiting, then stops.
func (w indexWatch) SubscribeIndex() (<-chan cli.IndexProgress, func()) {
	updates, unsubscribe := w.state.Subscribe()
	out := make(chan cli.IndexProgress, 64)
	quit, done := make(chan struct{}), make(chan struct{})
	forward := func(u console.HostUpdate) {
		if u.Index == nil {
			return
		}
		select {
		case out <- indexProgress(*u.Index):
		default: // the line shows the newest; a full buffer loses only an intermediate count
		}
	}
	go func() {
		defer close(done)
		for {
			select {
			case u := <-updates:
				forward(u)
			case <-quit:
				for {
					select {
					case u := <-updates:
						forward(u)
					default:
						return
					}
				}
			}
		}
	}()
	return out, func() {
		close(quit)
		<-done
		unsubscribe()
	}
}

// indexProgress is what the terminal shows of an index state: how far while building or rebuilding, else nothing.
func indexProgress(s console.IndexState) cli.IndexProgress {
	p := cli.IndexProgress{BytesDone: s.BytesDone, BytesTotal: s.BytesTotal}
	switch s.State {
	case console.IndexStatusBuilding:
		p.Active = true
	case console.IndexStatusRebuilding:
		p.Active, p.Rebuilding = true, true
	case console.IndexStatusUnknown, console.IndexStatusReady, console.IndexStatusFailed:
	}
	return p
}
