// Package runner runs Claude as a restricted agent for Go programs: the program hands it a curated set of tools,
// and nothing else is reachable — no Claude Code built-in (Bash, Read, Edit, Write, Grep, Glob, WebFetch, Task, …),
// no setting, hook, MCP server, skill or slash command of the person's or the project's. The run is bounded by a
// step budget (and optionally a cost budget) and reports why it stopped.
//
// It uses the person's own local Claude Code sign-in; CheckAuth says, before the first run, whether that works
// and what to do when it does not, and Run checks it too: signed out, a run fails at once with an *AuthError.
//
// Each run is one session in its own sidecar process (app/session): several runs at once are independent, and a
// canceled context ends its run through the session's cancel path.
package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/baton-console/baton/provision"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
)

// cancelGrace bounds how long a canceled run waits for its turn to end before the session is closed anyway.
const cancelGrace = 30 * time.Second

// Config says where runs come from. The zero value works in an installed Baton (or with BATON_SIDECAR set).
type Config struct {
	// Sessions runs the sessions (nil: a manager of the runner's own, from the fields below).
	Sessions *session.Manager
	// SidecarPath is the sidecar executable ("": beside the running binary, or $BATON_SIDECAR).
	SidecarPath string
	// Env is the whole environment of the sidecar and claude (nil: this process's own). With Sessions given, it
	// should be that manager's environment: CheckAuth probes with it.
	Env []string
	// Executable returns the claude to run (nil: the one Baton selects; none installed is an error saying to
	// run `baton provision`).
	Executable func(ctx context.Context) (string, error)
	Logger     zerolog.Logger
}

// Runner runs restricted runs.
type Runner struct {
	cfg      Config
	sessions *session.Manager
	signedIn atomic.Bool // a sign-in check passed (requireSignIn)
}

// New returns a runner; no process starts until a run does.
func New(cfg Config) *Runner {
	if cfg.Executable == nil {
		cfg.Executable = selectClaude
	}
	if cfg.SidecarPath == "" {
		cfg.SidecarPath = sidecar.DefaultPath()
	}
	m := cfg.Sessions
	if m == nil {
		m = session.NewManager(session.Config{SidecarPath: cfg.SidecarPath, Env: cfg.Env, Executable: cfg.Executable,
			Gate: auth.Acquire, Logger: cfg.Logger})
	}
	return &Runner{cfg: cfg, sessions: m}
}

var defaultRunner = sync.OnceValue(func() *Runner { return New(Config{Logger: zerolog.Nop()}) })

// Run runs spec with the default runner (New(Config{})).
func Run(ctx context.Context, spec Spec) (Result, error) { return defaultRunner().Run(ctx, spec) }

// CheckAuth checks the local Claude Code sign-in with the default runner.
func CheckAuth(ctx context.Context) error { return defaultRunner().CheckAuth(ctx) }

// Run runs spec to its end. The error is nil for StopNatural and StopBudget; for StopError it is Result.Err (an
// invalid spec, a signed-out Claude Code (an *AuthError, Detail "auth", found before anything starts), a run that
// could not start, an API, sign-in or sidecar failure, or ctx ending). Tool failures do not fail the run: they
// are counted in Result.ToolFailures.
func (r *Runner) Run(ctx context.Context, spec Spec) (Result, error) {
	cwd, err := spec.check()
	if err != nil {
		return failed("invalid_spec", fmt.Errorf("invalid run: %w", err))
	}
	if detail, err := r.requireSignIn(ctx); err != nil {
		return failed(detail, err)
	}
	id := uuid.NewString()
	sub := r.sessions.Subscribe(func(ev activity.Event) bool { return ev.Session == id })
	defer sub.Close()
	s, err := r.sessions.Start(ctx, session.StartOptions{ID: id, Cwd: cwd, Model: spec.Model, Restricted: spec.restricted()})
	if err != nil {
		return failed("start", fmt.Errorf("start the run: %w", err))
	}
	defer closeSession(s)
	turn, err := s.Exec(ctx, spec.Prompt)
	if err != nil {
		return failed("not_sent", fmt.Errorf("send the prompt: %w", err))
	}
	res := r.follow(ctx, s, sub, turn, spec)
	r.cfg.Logger.Info().Str("session", id).Str("stop", string(res.StopReason)).Str("detail", res.Detail).
		Int("turns", res.Turns).Int("tool_calls", len(res.ToolCalls)).Int("tool_failures", res.ToolFailures).Msg("restricted run ended")
	return res, res.Err
}

// follow reads the run's events until its turn ends, running each host tool call as it comes.
func (r *Runner) follow(ctx context.Context, s *session.Session, sub *session.Subscription, turn string, spec Spec) Result {
	c := newCollector(spec)
	handlers := map[string]Handler{}
	for _, t := range spec.Tools {
		handlers[t.Name] = t.Handler
	}
	outcomes := make(chan outcome)
	finished := make(chan struct{})
	defer close(finished)
	ctxDone := ctx.Done()
	var giveUp <-chan time.Time
	canceled := false
	for !c.done {
		select {
		case ev, ok := <-sub.C():
			if !ok {
				c.fail("sidecar_exited", errors.New("the run's events stopped before it finished"))
				c.done = true
				break
			}
			if c.observe(ev) >= 0 {
				go r.call(ctx, s, ev, handlers[ev.Name], spec.toolTimeout(), outcomes, finished)
			}
		case o := <-outcomes:
			c.noteOutcome(o)
		case <-ctxDone:
			// The session's cancel path: the sidecar settles the calls still waiting and interrupts the turn,
			// whose end (turn.canceled) arrives as an event.
			ctxDone, canceled = nil, true
			giveUp = time.After(cancelGrace)
			go func() {
				cctx, cancel := context.WithTimeout(context.Background(), cancelGrace)
				defer cancel()
				if _, err := s.Cancel(cctx, turn, session.DefaultCancelBudgets); err != nil {
					r.cfg.Logger.Warn().Err(err).Str("session", s.ID()).Msg("cancel the run")
				}
			}()
		case <-giveUp:
			c.fail("canceled", errors.New("the run was canceled and did not stop in time"))
			c.done = true
		}
	}
	res := c.result()
	if canceled {
		res.StopReason, res.Detail = StopError, "canceled"
		res.Err = fmt.Errorf("the run was canceled: %w", ctx.Err())
		res.Error = res.Err.Error()
	}
	return res
}

// call runs one handler and answers the sidecar. The outcome reaches the loop before the answer is sent, so it
// is known by the time the call's tool.completed / tool.failed event arrives.
func (r *Runner) call(ctx context.Context, s *session.Session, ev activity.Event, h Handler, timeout time.Duration,
	outcomes chan<- outcome, finished <-chan struct{}) {
	var out Output
	failure, text := FailureHandler, fmt.Sprintf("The tool %q is not served by this run.", ev.Name)
	if h != nil {
		out, failure, text = callHandler(ctx, h, ev.Input, timeout)
	}
	if failure != FailureNone {
		r.cfg.Logger.Debug().Str("session", s.ID()).Str("tool", ev.Name).Str("failure", string(failure)).Msg("tool call failed")
	}
	select {
	case outcomes <- outcome{callID: ev.CallID, value: out.Value, failure: failure}:
	case <-finished:
		return // the run is over; the session is closing
	}
	actx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.AnswerTool(actx, ev.CallID, text, failure != FailureNone); err != nil {
		r.cfg.Logger.Warn().Err(err).Str("session", s.ID()).Str("tool", ev.Name).Msg("answer the tool call")
	}
}

func failed(detail string, err error) (Result, error) {
	return Result{StopReason: StopError, Detail: detail, Err: err, Error: err.Error(), ToolCalls: []ToolCall{}}, err
}

func closeSession(s *session.Session) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = s.Close(ctx)
}

// selectClaude is the claude Baton would run; it never downloads (a library call should not fetch 400 MB).
func selectClaude(ctx context.Context) (string, error) {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err != nil {
		return "", fmt.Errorf("%w (run `baton provision` to install the pinned claude)", err)
	}
	return sel.Path, nil
}
