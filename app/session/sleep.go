package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
)

// DefaultIdle is how long an open session may sit idle before it sleeps when nothing else is configured.
const DefaultIdle = 10 * time.Minute

// ErrBusy is why Sleep refused: the session has work that must not be cut off.
var ErrBusy = errors.New("the session is busy")

// sleepBudget bounds retiring a sleeping session's sidecar: its close acknowledgement, then the process's exit.
const sleepBudget = 10 * time.Second

// ParseIdle reads BATON_SESSION_IDLE: a duration such as "10m" or "30s"; "" is DefaultIdle; "0" never sleeps.
func ParseIdle(value string) (time.Duration, error) {
	value = strings.TrimSpace(value)
	switch value {
	case "":
		return DefaultIdle, nil
	case "0":
		return 0, nil
	}
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("BATON_SESSION_IDLE=%q is not a duration such as 10m or 30s (0 never sleeps)", value)
	}
	return d, nil
}

// link is one sidecar process serving the session: the first from Start, then one per wake.
type link struct {
	client *sidecar.Client
	done   chan struct{} // closed once its events were all published
	// retiring: the process is being stopped while the session stays open (sleep, or a wake that failed), so
	// its end is not the session's.
	retiring atomic.Bool
	// wake: the process was started to wake the session; started: its start was acknowledged.
	wake    bool
	started atomic.Bool
}

func newLink(client *sidecar.Client, wake bool) *link {
	return &link{client: client, done: make(chan struct{}), wake: wake}
}

// hidden drops what a process says about its own life when that is not the session's: the session.closed of a
// retirement, and a wake's session.started or refused start (the host says asleep, waking and awake instead).
func (l *link) hidden(ev activity.Event) bool {
	switch ev.Kind {
	case activity.SessionClosed:
		return l.retiring.Load() || (l.wake && !l.started.Load())
	case activity.SessionStarted:
		return l.wake
	default:
		// Only a process's own start and close can belong to a retirement or a wake.
	}
	return false
}

// current returns the process serving the session, nil while it sleeps. It waits for a sleep or wake in progress.
func (s *Session) current() *sidecar.Client {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.link == nil {
		return nil
	}
	return s.link.client
}

// awake returns the process serving the session, waking it first when it sleeps. register, when set, runs under
// the session's lock before the lifecycle lock is let go, so what it records (a turn) keeps the session awake.
func (s *Session) awake(ctx context.Context, register func()) (*sidecar.Client, error) {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	s.mu.Lock()
	if s.ended || s.closing {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	asleep := s.asleep
	s.mu.Unlock()
	if asleep {
		if err := s.wake(ctx); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.link == nil { // Start has not finished opening it
		return nil, errors.New("the session is still starting; try again in a moment")
	}
	if register != nil {
		register()
	}
	return s.link.client, nil
}

// Sleep ends the session's query, its claude child and its sidecar process; the session stays open, asleep, and
// the next prompt or setting wakes it. It refuses with ErrBusy (saying why) while the session has work, and does
// nothing when the session already sleeps or is closing.
func (s *Session) Sleep(ctx context.Context) error {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	s.mu.Lock()
	if s.ended || s.closing || s.asleep || s.link == nil { // nil: Start has not finished opening it
		s.mu.Unlock()
		return nil
	}
	if s.startReq.Restricted != nil {
		s.mu.Unlock()
		return fmt.Errorf("%w: a restricted run keeps no transcript to wake from", ErrBusy)
	}
	if why := s.busyLocked(); why != "" {
		s.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrBusy, why)
	}
	l := s.link
	l.retiring.Store(true)
	s.disarmIdleLocked()
	s.mu.Unlock()

	ctx, cancel := context.WithTimeout(ctx, sleepBudget)
	defer cancel()
	// The sidecar acknowledges close only after the SDK query (and with it the claude child) has ended.
	callErr := l.client.Call(ctx, protocol.ReqClose, protocol.CloseRequest{Session: s.id}, nil)
	grace := 5 * time.Second
	if callErr != nil {
		grace = 0
	}
	_ = l.client.Close(grace)
	<-l.done
	s.mu.Lock()
	s.link, s.asleep = nil, true
	s.background.Tasks = nil // Claude Code reports no tasks at start: a fresh process starts from none
	s.mu.Unlock()
	if callErr != nil && !errors.Is(callErr, sidecar.ErrExited) {
		s.log.Warn().Err(callErr).Str("session", s.id).Msg("sleep: the sidecar did not acknowledge close; it was stopped")
	}
	s.log.Info().Str("session", s.id).Msg("session asleep")
	s.emit(activity.Event{Kind: activity.SessionUpdated, State: activity.SessionStateAsleep})
	return nil
}

// Wake readies the session for a prompt on its way (the person began typing), so the prompt need not wait: an
// asleep session wakes now, and an awake one starts its idle countdown again, so it does not fall asleep under a
// draft. A session still starting is left to finish. A failed wake leaves it asleep; the prompt tries again.
func (s *Session) Wake(ctx context.Context) error {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	s.mu.Lock()
	if s.ended || s.closing {
		s.mu.Unlock()
		return ErrClosed
	}
	asleep := s.asleep
	if !asleep {
		s.armIdleLocked() // a no-op while it starts, has work, or never sleeps
	}
	s.mu.Unlock()
	if asleep {
		return s.wake(ctx)
	}
	return nil
}

// wake starts a fresh sidecar resuming the session under the same id, with the model and permission mode it
// had. Callers hold lifeMu. A failure leaves the session asleep, so the next prompt tries again.
func (s *Session) wake(ctx context.Context) error {
	s.emit(activity.Event{Kind: activity.SessionUpdated, State: activity.SessionStateWaking})
	s.mu.Lock()
	req := s.startReq
	if s.resumable { // the transcript exists now: resume it, at its latest message
		req.Resume, req.ForkFrom, req.At = true, "", ""
	}
	switch s.requestedModel {
	case "":
	case "default":
		req.Model = ""
	default:
		req.Model = s.requestedModel
	}
	if s.permissionMode != "" {
		req.PermissionMode = s.permissionMode
	}
	s.mu.Unlock()
	began := time.Now()
	l, err := s.mgr.launch(ctx, s, req, true)
	if err != nil {
		s.log.Warn().Err(err).Str("session", s.id).Msg("wake failed; the session stays asleep")
		s.emit(activity.Event{Kind: activity.SessionUpdated, State: activity.SessionStateAsleep})
		return fmt.Errorf("wake the session: %w", err)
	}
	s.mu.Lock()
	s.link, s.asleep = l, false
	s.armIdleLocked()
	s.mu.Unlock()
	s.log.Info().Str("session", s.id).Dur("took", time.Since(began)).Msg("session awake")
	s.emit(activity.Event{Kind: activity.SessionUpdated, State: activity.SessionStateAwake})
	return nil
}

// endAsleep closes a sleeping session: there is no process, so the host says session.closed itself.
func (s *Session) endAsleep() {
	s.mu.Lock()
	s.ended = true
	s.mu.Unlock()
	s.emit(activity.Event{Kind: activity.SessionClosed, Reason: activity.SessionCloseReasonClosed})
	if s.onEnd != nil {
		s.onEnd(s)
	}
	close(s.pumpDone)
}

// armIdleLocked (re)starts the idle countdown; when it runs out the session tries to sleep. A countdown armed
// earlier is void, so only the latest quiet moment counts. Callers hold s.mu.
func (s *Session) armIdleLocked() {
	s.disarmIdleLocked()
	d := s.mgr.Idle()
	if d <= 0 || s.asleep || s.link == nil || s.ended || s.closing || s.startReq.Restricted != nil || s.busyLocked() != "" {
		return
	}
	gen := s.idleGen
	s.idleStop = s.mgr.afterFunc(d, func() { s.idleElapsed(gen) })
}

func (s *Session) disarmIdleLocked() {
	s.idleGen++
	if s.idleStop != nil {
		s.idleStop()
		s.idleStop = nil
	}
}

func (s *Session) idleElapsed(gen uint64) {
	s.mu.Lock()
	current := gen == s.idleGen
	s.mu.Unlock()
	if !current {
		return
	}
	if err := s.Sleep(context.Background()); err != nil && !errors.Is(err, ErrBusy) {
		s.log.Warn().Err(err).Str("session", s.id).Msg("idle session could not sleep")
	}
}

// running is the session's process when it runs and is not being retired, without waiting for a sleep or wake.
func (s *Session) running() *sidecar.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.link == nil || s.link.retiring.Load() || s.ended || s.closing {
		return nil
	}
	select {
	case <-s.link.client.Done():
		return nil
	default:
		return s.link.client
	}
}

// LendSidecar is a running session's sidecar for a short request that needs no session (a transcript job of the
// index): session's own when it runs, else any; nil when none runs. It never waits.
func (m *Manager) LendSidecar(session string) *sidecar.Client {
	if s, ok := m.Get(session); ok {
		if c := s.running(); c != nil {
			return c
		}
	}
	for _, s := range m.Open() {
		if c := s.running(); c != nil {
			return c
		}
	}
	return nil
}
