package index

import (
	"context"
	"errors"
)

// WaitBuilt builds the index (when Build was not called yet) and waits until every transcript is indexed: what a
// headless search needs before it answers. A build's failed scan is its error.
func (ix *Index) WaitBuilt(ctx context.Context) error {
	ix.mu.Lock()
	building := ix.building
	if !building {
		ix.quickScan = true
	}
	ix.mu.Unlock()
	if !building {
		ix.Build()
	}
	ch := make(chan error, 1)
	ix.mu.Lock()
	if ix.progress.Built && ix.idleTold {
		ix.mu.Unlock()
		return nil
	}
	ix.built = append(ix.built, ch)
	ix.mu.Unlock()
	ix.poke()
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-ix.done:
		return errors.New("the index closed")
	}
}

// tellBuilt answers WaitBuilt's callers; called with mu held.
func (ix *Index) tellBuilt(err error) {
	for _, ch := range ix.built {
		ch <- err
	}
	ix.built = nil
}
