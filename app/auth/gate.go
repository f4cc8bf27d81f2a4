package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DefaultGateWait bounds how long Acquire waits for the gate when the caller's context allows longer.
const DefaultGateWait = 30 * time.Second

// ErrGateBusy is returned (wrapped) when the gate stayed held for the whole bounded wait.
var ErrGateBusy = errors.New("the sign-in credentials are busy")

// Gate is a 1-slot semaphore around work that reads or refreshes the CLI's credentials: session start, model
// discovery and the sign-in probe. Two such CLI runs at once can both refresh an OAuth login and one of them
// then holds a revoked token; the gate makes them take turns.
type Gate struct {
	slot    chan struct{}
	maxWait time.Duration

	mu      sync.Mutex
	holder  string // purpose of the current holder, for messages
	waiters int
}

// NewGate returns a gate whose waits last at most maxWait (0 = DefaultGateWait).
func NewGate(maxWait time.Duration) *Gate {
	if maxWait <= 0 {
		maxWait = DefaultGateWait
	}
	return &Gate{slot: make(chan struct{}, 1), maxWait: maxWait}
}

// processGate is the one gate every credential user in this process shares.
var processGate = NewGate(DefaultGateWait)

// ProcessGate returns the process-wide gate.
func ProcessGate() *Gate { return processGate }

// Acquire takes the process-wide gate; see Gate.Acquire.
func Acquire(ctx context.Context, purpose string) (release func(), err error) {
	return processGate.Acquire(ctx, purpose)
}

// Acquire waits until the gate is free, the context ends, or the gate's bounded wait runs out. purpose
// ("session start", "model discovery", "sign-in check") names the holder in other callers' errors. The
// returned release may be called more than once.
func (g *Gate) Acquire(ctx context.Context, purpose string) (release func(), err error) {
	g.mu.Lock()
	g.waiters++
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.waiters--
		g.mu.Unlock()
	}()

	timer := time.NewTimer(g.maxWait)
	defer timer.Stop()
	select {
	case g.slot <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("%s stopped while waiting for %s: %w", purpose, g.holderName(), ctx.Err())
	case <-timer.C:
		return nil, fmt.Errorf("%s waited %s for %s to finish; try again: %w", purpose, g.maxWait, g.holderName(), ErrGateBusy)
	}
	g.mu.Lock()
	g.holder = purpose
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.holder = ""
			g.mu.Unlock()
			<-g.slot
		})
	}, nil
}

// Holder returns the current holder's purpose ("" when free).
func (g *Gate) Holder() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.holder
}

// Waiters returns how many callers are waiting in Acquire (diagnostics and tests).
func (g *Gate) Waiters() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiters
}

func (g *Gate) holderName() string {
	if h := g.Holder(); h != "" {
		return h
	}
	return "other work with the sign-in credentials"
}
