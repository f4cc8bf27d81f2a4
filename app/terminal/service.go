// Package terminal runs shells (and other terminal programs) in real PTYs for the console: several per session,
// each with a bounded scrollback so a reloaded console can redraw it, all ended when their session closes or Baton
// stops. It never logs what is typed or printed.
package terminal

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/google/uuid"
	"github.com/rs/zerolog"
)

// DefaultScrollback is how much of each terminal's output is kept for a redraw.
const DefaultScrollback = 1 << 20

// Options configure a Service.
type Options struct {
	// Shell is the argv a terminal runs when its Spec names none (nil: LoginShell()).
	Shell []string
	// Scrollback is the bytes kept per terminal (0: DefaultScrollback).
	Scrollback int
	// Env is the environment every terminal starts from (nil: Baton's own); a Spec's Env is added to it.
	Env    []string
	Logger zerolog.Logger
}

// Spec says what one terminal runs and where.
type Spec struct {
	Owner      string   // the session the terminal belongs to ("" for Baton's own, e.g. the sign-in)
	Dir        string   // the folder it starts in
	Argv       []string // nil: the shell
	Env        []string // added to Baton's environment
	Cols, Rows uint16
	Title      string
}

// Info describes one terminal.
type Info struct {
	ID, Owner, Title string
	Exited           bool
	ExitCode         int
}

// ErrNotFound is returned for a terminal that is not (or no longer) open.
var ErrNotFound = errors.New("this terminal is closed; open a new one")

// ErrExited is returned for input to a terminal whose program has ended.
var ErrExited = errors.New("the program in this terminal has exited; close it or open a new one")

// Service owns every terminal of one Baton.
type Service struct {
	opts   Options
	mu     sync.Mutex
	terms  map[string]*term
	subs   map[*Subscription]struct{}
	opened uint64 // terminals opened so far: each term's seq, so List keeps the order they opened in
	closed bool
}

// New creates a Service.
func New(opts Options) *Service {
	if opts.Scrollback <= 0 {
		opts.Scrollback = DefaultScrollback
	}
	return &Service{opts: opts, terms: map[string]*term{}, subs: map[*Subscription]struct{}{}}
}

// Open starts a terminal.
func (s *Service) Open(spec Spec) (Info, error) {
	argv := spec.Argv
	if len(argv) == 0 {
		argv = s.opts.Shell
	}
	if len(argv) == 0 {
		argv = LoginShell()
	}
	if st, err := os.Stat(spec.Dir); err != nil || !st.IsDir() {
		return Info{}, fmt.Errorf("the terminal's folder %s is not there: %w", spec.Dir, errors.Join(err, errors.New("not a folder")))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Info{}, errors.New("baton is stopping; no new terminal can open")
	}
	t, err := startTerm(s, uuid.NewString(), spec, argv)
	if err != nil {
		return Info{}, err
	}
	s.opened++
	t.seq = s.opened
	s.terms[t.id] = t
	// "pid" is Baton's own on every line of its logger (app/logging.go): the shell's goes under its own key.
	s.opts.Logger.Info().Str("terminal", t.id).Str("owner", spec.Owner).Int("shellPid", t.pid).Msg("terminal opened")
	return t.infoLocked(), nil
}

func (s *Service) get(id string) (*term, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.terms[id]
	if !ok {
		return nil, ErrNotFound
	}
	return t, nil
}

// Write sends what the person typed (or pasted) to the terminal.
func (s *Service) Write(id string, data []byte) error {
	s.mu.Lock()
	t, ok := s.terms[id]
	exited := ok && t.exitedFlag
	s.mu.Unlock()
	switch {
	case !ok:
		return ErrNotFound
	case exited:
		return ErrExited
	}
	return t.write(data)
}

// Resize sets the terminal's size in character cells.
func (s *Service) Resize(id string, cols, rows uint16) error {
	if cols == 0 || rows == 0 {
		return errors.New("a terminal needs at least one column and one row")
	}
	t, err := s.get(id)
	if err != nil {
		return err
	}
	return t.resize(cols, rows)
}

// Scrollback is what the terminal keeps of its output, the offset just past it, and the terminal's state.
func (s *Service) Scrollback(id string) ([]byte, int64, Info, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.terms[id]
	if !ok {
		return nil, 0, Info{}, ErrNotFound
	}
	data, end := t.ring.snapshot()
	return data, end, t.infoLocked(), nil
}

// List is the open terminals of owner in the order they opened ("" and all: every terminal), so a reloaded
// console shows its tabs as they were.
func (s *Service) List(owner string, all bool) []Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	terms := []*term{}
	for _, t := range s.terms {
		if all || t.owner == owner {
			terms = append(terms, t)
		}
	}
	slices.SortFunc(terms, func(a, b *term) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]Info, len(terms))
	for i, t := range terms {
		out[i] = t.infoLocked()
	}
	return out
}

// Done is closed once the terminal's program exited and all it printed was delivered.
func (s *Service) Done(id string) (<-chan struct{}, error) {
	t, err := s.get(id)
	if err != nil {
		return nil, err
	}
	return t.done, nil
}

// Exited says whether the terminal's program has exited (or the terminal is gone). It turns true before the exit
// is pushed to subscribers, so a client that saw the exit never finds the program running.
func (s *Service) Exited(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.terms[id]
	return !ok || t.exitedFlag
}

// Close ends a terminal and everything it started, and forgets it.
func (s *Service) Close(id string) error {
	s.mu.Lock()
	t, ok := s.terms[id]
	delete(s.terms, id)
	s.mu.Unlock()
	if !ok {
		return ErrNotFound
	}
	t.end()
	s.opts.Logger.Info().Str("terminal", id).Msg("terminal closed")
	return nil
}

// CloseOwner ends every terminal of a session (it closed).
func (s *Service) CloseOwner(owner string) {
	for _, info := range s.List(owner, false) {
		_ = s.Close(info.ID)
	}
}

// Shutdown ends every terminal and refuses new ones (Baton stops).
func (s *Service) Shutdown() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	for _, info := range s.List("", true) {
		_ = s.Close(info.ID)
	}
}

// Subscribe receives every terminal's output from now on.
func (s *Service) Subscribe() *Subscription {
	sub := newSubscription(s)
	s.mu.Lock()
	s.subs[sub] = struct{}{}
	s.mu.Unlock()
	return sub
}

func (s *Service) unsubscribe(sub *Subscription) {
	s.mu.Lock()
	delete(s.subs, sub)
	s.mu.Unlock()
}

// printed records output of t and hands it to every subscriber.
func (s *Service) printed(t *term, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	offset := t.ring.end
	t.ring.write(data)
	for sub := range s.subs {
		sub.add(t.id, offset, data)
	}
}

// exited records the end of t's program.
func (s *Service) exited(t *term, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.exitedFlag, t.exitCode = true, code
	for sub := range s.subs {
		sub.exit(t.id, t.ring.end, code)
	}
	s.opts.Logger.Info().Str("terminal", t.id).Int("code", code).Msg("terminal program exited")
}
