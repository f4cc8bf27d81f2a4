package session

import (
	"context"
	"sync"
)

// receiptEnds lets a cancel wait until the turn it stopped has its end (and its acceptance, which the sidecar
// sends before the end) in the receipt log: the sidecar answers a cancel after the turn's terminal event, but the
// host records that event on its own pump, so a caller that exits right after the answer (baton exec's Ctrl-C)
// would otherwise leave a receipt that reads host_exited, and a history that cannot say "Canceled".
type receiptEnds struct {
	mu      sync.Mutex
	pending map[string]chan struct{} // turn → closed once its end was recorded
}

// open notes a turn whose receipt was begun.
func (r *receiptEnds) open(turn string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		r.pending = map[string]chan struct{}{}
	}
	r.pending[turn] = make(chan struct{})
}

// ended notes that the turn's end was written (or its write was tried: a failure is logged where it happens).
func (r *receiptEnds) ended(turn string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ch, ok := r.pending[turn]; ok {
		close(ch)
		delete(r.pending, turn)
	}
}

// wait returns once the turn's end was recorded; at once for a turn with no receipt open (never one of ours, or
// already recorded).
func (r *receiptEnds) wait(ctx context.Context, turn string) error {
	r.mu.Lock()
	ch, ok := r.pending[turn]
	r.mu.Unlock()
	if !ok {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
