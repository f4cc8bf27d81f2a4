package auth

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Options configure a Service.
type Options struct {
	// Executable returns the claude that sessions run (the same selection the sidecar makes). "" = none found.
	// It is called inside the credential gate, so it must answer quickly (no downloads).
	Executable func(ctx context.Context) (string, error)
	// Env is the whole environment sessions get (nil: Baton's own). The probe runs with exactly this, so it sees
	// the same ANTHROPIC_API_KEY, CLAUDE_CODE_OAUTH_TOKEN, provider variables and CLAUDE_CONFIG_DIR.
	Env []string
	// ConfigDir and Home override CLAUDE_CONFIG_DIR and HOME (USERPROFILE on Windows) for both the watcher
	// and the probe (tests).
	ConfigDir string
	Home      string
	Logger    zerolog.Logger
	// Debounce groups bursts of file events (0: DefaultDebounce). PollInterval is how often the files are
	// re-read where notifications are unavailable (0: DefaultPollInterval).
	Debounce     time.Duration
	PollInterval time.Duration
	// ProbeTimeout bounds one `claude auth status` run (0: DefaultProbeTimeout).
	ProbeTimeout time.Duration
	// Gate serialises credential work (nil: the process-wide gate).
	Gate *Gate

	disableNotify bool // tests: poll only
}

// Service keeps the sign-in state current: it probes at start, again whenever a sign-in file changes, and on
// Refresh. It is safe for concurrent use.
type Service struct {
	opts  Options
	env   []string
	paths Paths
	dir   string // the probe's working directory: the home directory, neutral ground outside any project
	gate  *Gate
	log   zerolog.Logger

	// targets are the files whose content decides sign-in. Events on the forcing ones (settings.json and
	// .credentials.json) always lead to a probe; .claude.json changes all the time (the probe itself writes
	// it), so only a changed fingerprint of its auth keys counts.
	targets []watchTarget
	forcing map[string]bool

	mu      sync.Mutex
	state   State
	subs    map[int]chan State
	nextSub int
	started bool
	closed  bool
	// baseline is what the files said just after the last probe whose state was published as an answer
	// (not "unknown"); the watcher's checks compare against it, so a change a probe did not record is still
	// a change. eventSeq counts events on forcing targets; probedSeq is eventSeq when that probe began, so an
	// event during or after it is never mistaken for one the probe saw.
	baseline  readings
	eventSeq  uint64
	probedSeq uint64

	kick   chan struct{}
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewService prepares a service; nothing runs until Start.
func NewService(opts Options) (*Service, error) {
	if opts.Executable == nil {
		return nil, errors.New("auth: Options.Executable is required")
	}
	env := sessionEnv(opts.Env)
	if opts.Home != "" {
		env = envWith(env, envHome, opts.Home)
		if homeVar := homeVariable(); homeVar != envHome {
			env = envWith(env, homeVar, opts.Home)
		}
	}
	if opts.ConfigDir != "" {
		env = envWith(env, envConfigDir, opts.ConfigDir)
	}
	paths, err := ResolvePaths(env)
	if err != nil {
		return nil, fmt.Errorf("find claude's sign-in files: %w", err)
	}
	home, err := homeDir(env)
	if err != nil {
		return nil, err
	}
	gate := opts.Gate
	if gate == nil {
		gate = ProcessGate()
	}
	st := checkingState()
	st.ConfigDir = paths.ConfigDir
	return &Service{
		opts: opts, env: env, paths: paths, dir: deepestDir(home), gate: gate,
		log: opts.Logger.With().Str("component", "auth").Logger(),
		targets: []watchTarget{
			{path: filepath.Clean(paths.Settings), read: wholeFile},
			{path: filepath.Clean(paths.Credentials), read: wholeFile},
			{path: filepath.Clean(paths.GlobalState), read: globalStateAuth},
		},
		forcing: map[string]bool{filepath.Clean(paths.Settings): true, filepath.Clean(paths.Credentials): true},
		state:   st, subs: map[int]chan State{}, kick: make(chan struct{}, 1),
	}, nil
}

// Paths returns the files the service watches.
func (s *Service) Paths() Paths { return s.paths }

// Start begins watching and runs the first probe in the background; State is "unknown" until it answers.
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("auth: the sign-in service is closed")
	}
	if s.started {
		return nil
	}
	s.started = true
	ctx, s.cancel = context.WithCancel(ctx)
	if s.baseline == nil {
		// Until the start-up probe answers, what the files say now stands in for what it will see: a change
		// after this reading is an event or a changed fingerprint, either way a probe.
		s.baseline = readTargets(s.targets)
	}
	w := startWatcher(ctx, watcherConfig{
		targets:      s.targets,
		debounce:     s.opts.Debounce,
		pollInterval: s.opts.PollInterval,
		notify:       !s.opts.disableNotify,
		onEvent:      s.fileEvent,
		onCheck:      s.filesRead,
		log:          s.log,
	})
	s.wg.Add(2)
	go func() { defer s.wg.Done(); w.wait() }()
	go func() { defer s.wg.Done(); s.loop(ctx) }()
	s.trigger()
	s.log.Info().Str("configDir", s.paths.ConfigDir).Msg("watching sign-in files")
	return nil
}

// State returns the latest state.
func (s *Service) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// Subscribe delivers the current state at once, then each new one (only changes, not every probe). A slow
// reader gets the latest state, not a backlog. cancel stops delivery and closes the channel; Close closes it too.
func (s *Service) Subscribe() (updates <-chan State, cancel func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan State, 1)
	if s.closed {
		close(ch)
		return ch, func() {}
	}
	id := s.nextSub
	s.nextSub++
	s.subs[id] = ch
	ch <- s.state
	return ch, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if c, ok := s.subs[id]; ok {
			delete(s.subs, id)
			close(c)
		}
	}
}

// Refresh probes now and returns the new state. The error is only about getting the gate (cancelled or it
// stayed busy); a probe that fails yields an "unknown" state instead.
func (s *Service) Refresh(ctx context.Context) (State, error) {
	return s.probe(ctx)
}

// Close stops watching and probing and closes subscriber channels.
func (s *Service) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, c := range s.subs {
		delete(s.subs, id)
		close(c)
	}
}

// fileEvent counts events on the forcing targets; the watcher's next check turns them into a probe.
func (s *Service) fileEvent(targets []string) {
	for _, t := range targets {
		if s.forcing[t] {
			s.mu.Lock()
			s.eventSeq++
			s.mu.Unlock()
			return
		}
	}
}

// filesRead probes when the files say something the last answered probe did not see, or when a forcing
// target had an event since that probe began (a change that came and went is not lost).
func (s *Service) filesRead(now readings) {
	s.mu.Lock()
	changed := s.baseline.changedFrom(now)
	events := s.eventSeq != s.probedSeq
	s.mu.Unlock()
	if len(changed) == 0 && !events {
		return
	}
	names := make([]string, len(changed))
	for i, p := range changed {
		names[i] = filepath.Base(p)
	}
	s.log.Debug().Strs("files", names).Bool("events", events).Msg("sign-in files changed")
	s.trigger()
}

// trigger asks the loop for a probe; requests made while one runs merge into one more probe.
func (s *Service) trigger() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *Service) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
			if _, err := s.probe(ctx); err != nil && ctx.Err() == nil {
				// Skipped (the gate stayed busy): the baseline did not move, so try again a little later.
				s.log.Warn().Err(err).Msg("sign-in check skipped; trying again")
				select {
				case <-ctx.Done():
					return
				case <-time.After(s.retryDelay()):
				}
				s.trigger()
			}
		}
	}
}

// probe runs one check inside the credential gate and publishes the result before releasing it, so results
// are published in the order the checks ran.
func (s *Service) probe(ctx context.Context) (State, error) {
	release, err := s.gate.Acquire(ctx, "sign-in check")
	if err != nil {
		return s.State(), fmt.Errorf("check the sign-in: %w", err)
	}
	defer release()

	s.mu.Lock()
	seq := s.eventSeq
	s.mu.Unlock()
	before := readTargets(s.targets)
	started := time.Now()
	exe, err := s.opts.Executable(ctx)
	var st State
	req := probeRequest{Executable: exe, Env: s.env, Dir: s.dir, Timeout: s.opts.ProbeTimeout}
	if err != nil {
		st = unknownState(fmt.Sprintf("Baton could not choose a claude executable: %v", err))
	} else {
		st = runProbe(ctx, req)
	}
	if ctx.Err() != nil && st.Status == StatusUnknown {
		return s.State(), fmt.Errorf("check the sign-in: %w", ctx.Err())
	}
	if st.Status == StatusSignedIn && keyShadowsSubscription(ctx, st, req, s.paths.Credentials, keychainLogin) {
		st.Warnings = append(st.Warnings, shadowWarning())
	}
	st.ConfigDir = s.paths.ConfigDir
	if exe != "" {
		st.SignInCommand = SignInCommandLine(exe, s.env)
	}
	st.CheckedAt = time.Now()
	s.log.Info().Str("status", string(st.Status)).Str("method", string(st.Method)).Str("provider", st.Provider).
		Int("warnings", len(st.Warnings)).Dur("took", time.Since(started)).Msg("sign-in checked")
	after := readTargets(s.targets)
	s.publish(st)
	s.settleProbe(st, seq, before, after)
	return st, nil
}

// settleProbe moves the baseline to what the files said after an answered probe, and asks for one more probe
// when they changed while it ran (the answer may predate the change) or a forcing target had an event then.
// A probe that could not answer ("unknown") moves nothing, so the change that led to it is seen again.
func (s *Service) settleProbe(st State, seq uint64, before, after readings) {
	s.mu.Lock()
	if st.Status != StatusUnknown {
		s.baseline = s.baseline.updated(after)
		s.probedSeq = seq
	}
	again := s.eventSeq != seq || len(before.changedFrom(after)) > 0
	s.mu.Unlock()
	if again {
		s.trigger()
	}
}

// retryDelay is how long a skipped probe waits before it is tried again.
func (s *Service) retryDelay() time.Duration {
	if s.opts.PollInterval > 0 {
		return s.opts.PollInterval
	}
	return DefaultPollInterval
}

func (s *Service) publish(st State) {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := !st.Same(s.state)
	s.state = st
	if !changed || s.closed {
		return
	}
	for _, c := range s.subs {
		select { // keep only the newest undelivered state
		case <-c:
		default:
		}
		c <- st
	}
}

func homeVariable() string {
	if isWindows() {
		return envUserProfile
	}
	return envHome
}
