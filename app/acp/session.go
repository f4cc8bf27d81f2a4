package acp

import (
	"context"
	"sync"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
)

// closeBudget bounds closing a session when the client leaves or asks.
const closeBudget = 15 * time.Second

// acpSession is one open Baton session as the client sees it: its events become updates, its prompts wait for
// their turns' ends.
type acpSession struct {
	a   *Agent
	id  string
	s   *session.Session
	sub *session.Subscription
	tr  *translator

	mu        sync.Mutex
	waiting   map[string]waiter     // a prompt's turn → its prompt
	cancelled map[string]bool       // turns a session/cancel ended: they answer "cancelled" whatever ends them
	rejected  map[string]bool       // tools the client rejected always: denied without asking from then on
	asks      map[string]pendingAsk // permission requests put to the client, by request id
	models    []activity.ModelEntry
	model     string
	mode      activity.PermissionMode // as the client was last told it
	done      chan struct{}
}

// waiter is a prompt waiting for its turn's end: where the end goes, and how many cancels of the session the
// reading loop had seen when it read the prompt (a cancel read later ends it; one read earlier does not).
type waiter struct {
	end  chan turnEnd
	read uint64
}

// turnEnd is how a turn ended: a stop reason, or an error for the prompt's answer.
type turnEnd struct {
	stop string
	err  error
}

// open starts (or resumes) a Baton session and begins forwarding its events. The subscription is in place before
// the session's first event.
func (a *Agent) open(ctx context.Context, opts session.StartOptions) (*acpSession, error) {
	switch {
	case opts.Resume != "":
		if s, ok := a.session(opts.Resume); ok {
			return s, nil // already open on this connection: resuming it is a no-op
		}
		opts.ID = opts.Resume
	case opts.ID == "":
		opts.ID = newSessionID()
	}
	id := opts.ID
	sub := a.cfg.Sessions.Subscribe(func(ev activity.Event) bool { return ev.Session == id })
	s, err := a.cfg.Sessions.Start(ctx, opts)
	if err != nil {
		sub.Close()
		return nil, err
	}
	as := &acpSession{a: a, id: id, s: s, sub: sub, tr: newTranslator(false, s.State().Cwd), waiting: map[string]waiter{},
		cancelled: map[string]bool{}, model: opts.Model, mode: s.State().PermissionMode, done: make(chan struct{})}
	if as.model == "" {
		as.model = defaultModel
	}
	a.mu.Lock()
	a.sessions[id] = as
	a.mu.Unlock()
	go as.pump()
	return as, nil
}

func (s *acpSession) setup() sessionSetup {
	s.mu.Lock()
	defer s.mu.Unlock()
	return sessionSetup{Modes: modeState(s.mode), ConfigOptions: []configOption{modelOption(s.model, s.models)}}
}

// pump forwards the session's events until it ends; then every waiting prompt is answered.
func (s *acpSession) pump() {
	defer close(s.done)
	defer s.forget()
	for ev := range s.sub.C() {
		for _, u := range s.tr.updates(ev) {
			if m, ok := u.(modeUpdate); ok {
				s.tellMode(activity.PermissionMode(m.CurrentModeID), false)
				continue
			}
			s.a.notify(mSessionUpdate, sessionNotification{SessionID: s.id, Update: u})
		}
		s.act(ev)
	}
	s.endAll(turnEnd{err: errorf(codeInternalError, "the session ended before the turn did; open it again with session/resume")})
	s.withdraw(func(string, pendingAsk) bool { return true })
}

// act is what an event makes the session do besides updating the client.
func (s *acpSession) act(ev activity.Event) {
	switch ev.Kind {
	case activity.PermissionRequested:
		go s.askPermission(s.track(ev), ev)
	case activity.PermissionSettled:
		// Settled without the client's answer (a cancel's interrupt, the session closing): stop asking it.
		s.withdraw(func(id string, _ pendingAsk) bool { return id == ev.RequestID })
	case activity.TurnCompleted:
		s.end(ev.Turn, turnEnd{stop: stopReason(ev.StopReason)})
	case activity.TurnFailed:
		s.end(ev.Turn, turnEnd{err: errorf(codeInternalError, "the turn failed: %s", turnFailure(ev))})
	case activity.TurnCanceled:
		s.end(ev.Turn, turnEnd{stop: stopCancelled})
	case activity.ModelsUpdated:
		s.mu.Lock()
		s.models = ev.Models
		opt := modelOption(s.model, s.models)
		s.mu.Unlock()
		s.a.notify(mSessionUpdate, sessionNotification{SessionID: s.id,
			Update: configUpdate{SessionUpdate: upConfig, ConfigOptions: []configOption{opt}}})
	case activity.SessionClosed:
		s.sub.Drain() // its last event: what is queued is delivered, then the pump ends
	default:
		// Every other kind is only an update (translate.go) or nothing the client sees.
	}
}

func turnFailure(ev activity.Event) string {
	if ev.Message != "" {
		return ev.Message
	}
	return ev.Code
}

// stopReason maps the API's stop reason on turn.completed to ACP's.
func stopReason(api string) string {
	switch api {
	case "max_tokens":
		return stopMaxTokens
	case "refusal":
		return stopRefusal
	case "max_turns":
		return stopMaxTurns
	}
	return stopEndTurn
}

// end answers the prompt waiting for turn; a canceled prompt answers "cancelled" however its turn ended. The
// turn's permission requests still put to the client are withdrawn: nothing waits for their answers now.
func (s *acpSession) end(turn string, e turnEnd) {
	s.mu.Lock()
	s.withdrawLocked(func(_ string, p pendingAsk) bool { return turn != "" && p.turn == turn })
	w, ok := s.waiting[turn]
	if s.cancelled[turn] {
		e = turnEnd{stop: stopCancelled}
	}
	delete(s.waiting, turn)
	delete(s.cancelled, turn)
	s.mu.Unlock()
	if ok {
		w.end <- e
	}
}

func (s *acpSession) endAll(e turnEnd) {
	s.mu.Lock()
	turns := make([]string, 0, len(s.waiting))
	for t := range s.waiting {
		turns = append(turns, t)
	}
	s.mu.Unlock()
	for _, t := range turns {
		s.end(t, e)
	}
}

// close ends the Baton session (its process, its query) and waits for its last event.
func (s *acpSession) close() {
	ctx, cancel := context.WithTimeout(context.Background(), closeBudget)
	defer cancel()
	if err := s.s.Close(ctx); err != nil {
		s.a.log.Warn().Err(err).Str("session", s.id).Msg("could not close the session")
	}
	s.sub.Drain()
	<-s.done
}

// forget takes an ended session off the connection: a later prompt to it is answered "not open".
func (s *acpSession) forget() {
	s.a.mu.Lock()
	if s.a.sessions[s.id] == s {
		delete(s.a.sessions, s.id)
	}
	s.a.mu.Unlock()
}

// tellMode tells the client the session's mode, once per change (or always: force): set_mode's answer and the
// runtime's report of the change it made are the same news, and whichever comes first tells it. The update is
// written under the lock, so it is on the wire before set_mode answers.
func (s *acpSession) tellMode(m activity.PermissionMode, force bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m == s.mode && !force {
		return
	}
	s.mode = m
	s.a.notify(mSessionUpdate, sessionNotification{SessionID: s.id, Update: modeUpdate{SessionUpdate: upMode, CurrentModeID: string(m)}})
}
