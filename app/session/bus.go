package session

import (
	"sync"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/queue"
)

// Bus fans events out to subscribers. Each subscriber has its own unbounded queue, so one slow front end never
// delays another or the sessions themselves.
type Bus struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// Subscription receives the events its filter accepts, in order.
type Subscription struct {
	bus    *Bus
	filter func(activity.Event) bool
	q      *queue.Unbounded[activity.Event]
	once   sync.Once
}

func newBus() *Bus { return &Bus{subs: map[*Subscription]struct{}{}} }

// Subscribe starts delivering events (all when filter is nil). Call Close when done.
func (b *Bus) Subscribe(filter func(activity.Event) bool) *Subscription {
	s := &Subscription{bus: b, filter: filter, q: queue.New[activity.Event]()}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// C delivers the events; it is closed after Close.
func (s *Subscription) C() <-chan activity.Event { return s.q.Out() }

// Close stops delivery and closes C; events still queued are discarded, so a subscriber that stops reading
// leaks nothing.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.bus.mu.Lock()
		delete(s.bus.subs, s)
		s.bus.mu.Unlock()
		s.q.Close()
		go func() {
			for range s.q.Out() {
			}
		}()
	})
}

// Drain stops delivery of new events; those already queued are still delivered, then C closes. Use it to read
// a session's last events after it has ended.
func (s *Subscription) Drain() {
	s.once.Do(func() {
		s.bus.mu.Lock()
		delete(s.bus.subs, s)
		s.bus.mu.Unlock()
		s.q.Close()
	})
}

func (b *Bus) publish(ev activity.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		if s.filter == nil || s.filter(ev) {
			s.q.Push(ev)
		}
	}
}
