// Package discovery finds the models the composer offers before a session is open: a hidden query (no turn, no
// API request) run from Baton's own discovery folder, scoped to the signed-in account and cached per account.
// A request waits a bounded time; the discovery itself carries on in the background, so a slow start (an OAuth
// refresh being saved) still fills the cache for the next request. A sign-in change clears the cache.
package discovery

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/rs/zerolog"
)

const (
	// DefaultWait bounds how long one request waits for a discovery.
	DefaultWait = 20 * time.Second
	// DefaultBudget bounds one background discovery, long enough for an OAuth refresh to be saved.
	DefaultBudget = 10 * time.Minute
)

// ErrStillRunning means the discovery outlasted the request's wait; it carries on, and a later request gets its
// answer.
//
//lint:ignore ST1005 the message is shown to people as is, and it starts with a name.
var ErrStillRunning = errors.New("Claude Code is still reporting its models; try again in a moment")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("model discovery has stopped")

// Options configure a Service.
type Options struct {
	// Discover runs one discovery (see HiddenQuery). Its context lasts up to Budget; it is not the request's.
	Discover func(ctx context.Context) ([]activity.ModelEntry, error)
	// Account says whose models a discovery would return now.
	Account func() Account
	// Wait and Budget: 0 means DefaultWait and DefaultBudget.
	Wait   time.Duration
	Budget time.Duration
	Logger zerolog.Logger
}

// Models is the answer to a request: the models and the account they belong to (Account.Key).
type Models struct {
	Models  []activity.ModelEntry `json:"models"`
	Account string                `json:"account"`
}

// Service answers model requests from its cache, running at most one discovery per account at a time.
type Service struct {
	opts   Options
	log    zerolog.Logger
	base   context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	gen      uint64 // bumped by Supersede: results of discoveries begun before it are not cached
	cache    map[string][]activity.ModelEntry
	inflight map[string]*run
	closed   bool
}

// run is one background discovery; done is closed once models/err are set.
type run struct {
	gen    uint64
	done   chan struct{}
	models []activity.ModelEntry
	err    error
}

// New creates a service; discoveries start on the first request.
func New(opts Options) *Service {
	if opts.Wait <= 0 {
		opts.Wait = DefaultWait
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	base, cancel := context.WithCancel(context.Background())
	return &Service{opts: opts, log: opts.Logger.With().Str("component", "discovery").Logger(), base: base,
		cancel: cancel, cache: map[string][]activity.ModelEntry{}, inflight: map[string]*run{}}
}

// List returns the current account's models: cached, or from a discovery it starts or joins. It waits at most
// Wait (or until ctx ends); the discovery is not cancelled when the request gives up.
func (s *Service) List(ctx context.Context) (Models, error) {
	key := s.opts.Account().Key()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return Models{}, ErrClosed
	}
	if models, ok := s.cache[key]; ok {
		s.mu.Unlock()
		return Models{Models: models, Account: key}, nil
	}
	r := s.inflight[key]
	if r == nil {
		r = s.start(key)
	}
	s.mu.Unlock()

	timer := time.NewTimer(s.opts.Wait)
	defer timer.Stop()
	select {
	case <-r.done:
		if r.err != nil {
			return Models{}, fmt.Errorf("discover the models: %w", r.err)
		}
		return Models{Models: r.models, Account: key}, nil
	case <-timer.C:
		return Models{}, fmt.Errorf("after %s: %w", s.opts.Wait, ErrStillRunning)
	case <-ctx.Done():
		return Models{}, fmt.Errorf("discover the models: %w", ctx.Err())
	}
}

// start begins a background discovery for key; s.mu is held.
func (s *Service) start(key string) *run {
	r := &run{gen: s.gen, done: make(chan struct{})}
	s.inflight[key] = r
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.base, s.opts.Budget)
		defer cancel()
		began := time.Now()
		models, err := s.opts.Discover(ctx)
		if err == nil && models == nil {
			models = []activity.ModelEntry{}
		}
		s.mu.Lock()
		r.models, r.err = models, err
		if s.inflight[key] == r {
			delete(s.inflight, key)
		}
		// A failure is not cached, so the next request tries again; nor is a result for a superseded sign-in.
		fresh := r.gen == s.gen
		if err == nil && fresh && !s.closed {
			s.cache[key] = models
		}
		s.mu.Unlock()
		close(r.done)
		if err != nil {
			s.log.Warn().Err(err).Str("account", key).Dur("took", time.Since(began)).Msg("model discovery failed")
			return
		}
		s.log.Info().Str("account", key).Int("models", len(models)).Bool("superseded", !fresh).
			Dur("took", time.Since(began)).Msg("models discovered")
	}()
	return r
}

// Supersede marks every cached and running result as out of date (the sign-in changed): the cache is cleared,
// and discoveries under way finish for the requests waiting on them but are not cached.
func (s *Service) Supersede() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	clear(s.cache)
	clear(s.inflight)
}

// FollowAuth supersedes the cache on every sign-in state after the first (auth.Service.Subscribe delivers the
// current state first, then each change). It returns when updates is closed.
func (s *Service) FollowAuth(updates <-chan auth.State) {
	first := true
	for range updates {
		if first {
			first = false
			continue
		}
		s.log.Debug().Msg("sign-in changed: cached models superseded")
		s.Supersede()
	}
}

// Close stops background discoveries and waits for them.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
}
