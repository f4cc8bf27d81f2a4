package terminal

import (
	"context"
	"sync"
)

// Output is what a terminal printed since the last delivery to one subscriber, or its end. Offset is the position
// of Data's first byte in everything the terminal ever printed: a subscriber that finds a gap (it fell behind and
// output was dropped) redraws from Scrollback.
type Output struct {
	Terminal string
	Offset   int64
	Data     []byte
	Exited   bool
	ExitCode int
}

// maxPending bounds what one subscriber may have waiting per terminal. A console that cannot keep up (a 50 MB
// burst) loses the middle and redraws from the scrollback instead of holding the shell back or growing without end.
const maxPending = 1 << 20

// Subscription receives every terminal's output, coalesced: while the transport writes one batch, the next one
// gathers, so a burst costs a push per write, not a push per read of the PTY.
type Subscription struct {
	svc     *Service
	mu      sync.Mutex
	pending map[string]*Output
	order   []string
	wake    chan struct{}
}

func newSubscription(svc *Service) *Subscription {
	return &Subscription{svc: svc, pending: map[string]*Output{}, wake: make(chan struct{}, 1)}
}

// add queues data printed at offset by terminal id.
func (s *Subscription) add(id string, offset int64, data []byte) {
	s.mu.Lock()
	p := s.pendingOf(id, offset)
	switch {
	case p.Offset+int64(len(p.Data)) != offset || len(p.Data)+len(data) > maxPending:
		// A gap or too much waiting: keep only the newest, the subscriber sees the gap and redraws.
		p.Offset, p.Data = offset, append(p.Data[:0], data...)
	default:
		p.Data = append(p.Data, data...)
	}
	s.mu.Unlock()
	s.signal()
}

// exit queues the end of terminal id.
func (s *Subscription) exit(id string, offset int64, code int) {
	s.mu.Lock()
	p := s.pendingOf(id, offset)
	p.Exited, p.ExitCode = true, code
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) pendingOf(id string, offset int64) *Output {
	p, ok := s.pending[id]
	if !ok {
		p = &Output{Terminal: id, Offset: offset}
		s.pending[id] = p
		s.order = append(s.order, id)
	}
	return p
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Next waits for output and returns all that is waiting, one Output per terminal in the order they first printed.
func (s *Subscription) Next(ctx context.Context) ([]Output, error) {
	for {
		s.mu.Lock()
		if len(s.order) > 0 {
			out := make([]Output, 0, len(s.order))
			for _, id := range s.order {
				out = append(out, *s.pending[id])
			}
			s.pending, s.order = map[string]*Output{}, nil
			s.mu.Unlock()
			return out, nil
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Close stops the subscription.
func (s *Subscription) Close() { s.svc.unsubscribe(s) }
