// Package queue holds Unbounded, an order-keeping hand-off that never blocks its producer.
package queue

import "sync"

// Unbounded decouples a producer from a consumer: the producer (a sidecar's stdout reader, the event bus) never
// blocks on a slow consumer, which would stall replies or other subscribers, and nothing is dropped.
type Unbounded[T any] struct {
	mu     sync.Mutex
	items  []T
	busy   bool // the pump took items that are not all in out yet
	closed bool
	signal chan struct{}
	out    chan T
}

// Out delivers the items in order and is closed after Close once all were delivered.
func (q *Unbounded[T]) Out() <-chan T { return q.out }

// outBuffer lets the pump hand over a burst without waiting for the consumer to wake for each item (a streaming
// reply is thousands of events: a goroutine switch per item cost more than the items), and lets a consumer that
// batches see what is waiting. Items in it were already pushed, so order and Close are unchanged.
const outBuffer = 64

// New starts the hand-off; read from Out.
func New[T any]() *Unbounded[T] {
	q := &Unbounded[T]{signal: make(chan struct{}, 1), out: make(chan T, outBuffer)}
	go q.pump()
	return q
}

// Push queues an item; after Close it is ignored. While nothing waits ahead of it and Out has room, the item goes
// straight to Out: a lone event then wakes only its consumer, not the pump and then its consumer (each wake is a
// chance to wait for a CPU, which is what a streamed piece's latency is made of on a busy machine).
func (q *Unbounded[T]) Push(item T) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	if len(q.items) == 0 && !q.busy {
		select {
		case q.out <- item:
			q.mu.Unlock()
			return
		default:
		}
	}
	q.items = append(q.items, item)
	q.mu.Unlock()
	q.wake()
}

// Close lets the consumer drain what was queued, then closes Out.
func (q *Unbounded[T]) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.wake()
}

func (q *Unbounded[T]) wake() {
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

func (q *Unbounded[T]) pump() {
	defer close(q.out)
	for {
		q.mu.Lock()
		batch := q.items
		q.items = nil
		q.busy = len(batch) > 0 // until the batch is in out, a Push must queue behind it
		closed := q.closed
		q.mu.Unlock()
		for _, item := range batch {
			q.out <- item
		}
		if len(batch) > 0 {
			continue
		}
		if closed {
			return
		}
		<-q.signal
	}
}
