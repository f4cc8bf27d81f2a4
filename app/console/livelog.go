package console

import (
	"sync"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
)

// liveLog keeps the lasting (non-ephemeral) events of open sessions so that a window or browser that connects
// later, or reconnects, can rebuild them — a pending permission request included — without replaying deltas.
type liveLog struct {
	sub    *session.Subscription
	mu     sync.Mutex
	events map[string][]activity.Event
	done   chan struct{}
}

func newLiveLog(m *session.Manager) *liveLog {
	l := &liveLog{
		sub:    m.Subscribe(func(ev activity.Event) bool { return !ev.Ephemeral && ev.Session != "" }),
		events: map[string][]activity.Event{},
		done:   make(chan struct{}),
	}
	go l.run()
	return l
}

func (l *liveLog) run() {
	defer close(l.done)
	for ev := range l.sub.C() {
		l.mu.Lock()
		if ev.Kind == activity.SessionStarted {
			l.events[ev.Session] = nil // a reopened session starts a fresh log
		}
		l.events[ev.Session] = append(l.events[ev.Session], ev)
		l.mu.Unlock()
	}
}

// of returns a copy of a session's lasting events.
func (l *liveLog) of(id string) []activity.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]activity.Event(nil), l.events[id]...)
}

// forget drops the log of a session that is no longer open.
func (l *liveLog) forget(id string) {
	l.mu.Lock()
	delete(l.events, id)
	l.mu.Unlock()
}

func (l *liveLog) close() {
	l.sub.Close()
}
