package console

import (
	"sync"
	"time"
)

// indexPushInterval is the least time between two pushes of the index's progress while it builds: its counts
// change with every transcript, far more often than a person reads them.
const indexPushInterval = 250 * time.Millisecond

// indexPush holds the index's state and throttles its pushes: a change of State goes out at once, counts at
// most once an interval, and the latest one always goes out in the end (a timer sends what was held back).
type indexPush struct {
	send  sync.Mutex // serializes reading the latest state and publishing it, so the last push is the latest
	state IndexState // under HostState.mu, as the fields below
	sent  time.Time
	timer func() bool // stops the pending send (nil: none)
	now   func() time.Time
	after func(time.Duration, func()) (stop func() bool)
}

func newIndexPush() indexPush {
	return indexPush{state: IndexState{State: IndexStatusUnknown}, now: time.Now,
		after: func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }}
}

// Index returns the index's state.
func (h *HostState) Index() IndexState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.index.state
}

// SetIndex records the index's state and announces it, throttled (indexPush).
func (h *HostState) SetIndex(s IndexState) {
	h.mu.Lock()
	p := &h.index
	changed := s.State != p.state.State
	p.state = s
	wait := indexPushInterval - p.now().Sub(p.sent)
	due := changed || wait <= 0
	switch {
	case due && p.timer != nil:
		p.timer()
		p.timer = nil
	case !due && p.timer == nil:
		p.timer = p.after(wait, h.pushIndex)
	}
	h.mu.Unlock()
	if due {
		h.pushIndex()
	}
}

// pushIndex publishes the latest state.
func (h *HostState) pushIndex() {
	h.index.send.Lock()
	defer h.index.send.Unlock()
	h.mu.Lock()
	s := h.index.state
	h.index.sent = h.index.now()
	h.index.timer = nil
	h.mu.Unlock()
	h.publish(HostUpdate{Index: &s})
}
