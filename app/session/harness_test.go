package session_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// harness runs the real sidecar, SDK and claude CLI against a scripted Messages API on loopback.
type harness struct {
	t       *testing.T
	api     *fakeapi.Server
	home    string
	project string
	m       *session.Manager
	rec     *recorder
	holdMu  sync.Mutex
	hold    chan struct{}
	cliEnv  []string
	// script, when set, answers a streaming request first (ok false: the default script answers).
	script func(*fakeapi.Request) (fakeapi.Reply, bool)
}

// scriptWith makes fn answer streaming requests before the default script (ok false passes the request on).
func (h *harness) scriptWith(fn func(*fakeapi.Request) (fakeapi.Reply, bool)) {
	h.holdMu.Lock()
	defer h.holdMu.Unlock()
	h.script = fn
}

// env is the environment the harness runs its sidecars with (the scripted API, the temp home).
func (h *harness) env() []string { return h.cliEnv }

// release lets every held stream go on; later [hold] replies wait again until the next release.
func (h *harness) release() {
	h.holdMu.Lock()
	defer h.holdMu.Unlock()
	close(h.hold)
	h.hold = make(chan struct{})
}

func newHarness(t *testing.T) *harness { return newHarnessWith(t, nil) }

// newHarnessWith lets a test adjust the manager's configuration (e.g. its idle clock) before it is made.
func newHarnessWith(t *testing.T, configure func(*session.Config)) *harness {
	t.Helper()
	claude := testenv.RequireClaude(t)
	h := &harness{t: t, home: testenv.NewHome(t), project: testenv.NewProject(t), hold: make(chan struct{})}
	// [hold] in a prompt: the reply stops after its first text delta until the test calls release.
	script := func(req *fakeapi.Request) fakeapi.Reply {
		h.holdMu.Lock()
		own := h.script
		h.holdMu.Unlock()
		if own != nil && req.Stream {
			if r, ok := own(req); ok {
				return r
			}
		}
		r := fakeapi.DefaultScript()(req)
		if req.Stream && strings.Contains(req.LastUserText(), "[hold]") && len(req.LastToolResults()) == 0 {
			h.holdMu.Lock()
			r.Hold = h.hold
			h.holdMu.Unlock()
		}
		return r
	}
	api, err := fakeapi.Start(script)
	require.NoError(t, err)
	t.Cleanup(api.Close)
	h.api = api
	env := append(testenv.CLIEnv(api.URL(), h.home), "CLAUDE_CODE_EXECUTABLE="+claude)
	h.cliEnv = env
	cfg := session.Config{SidecarPath: testenv.SidecarPath(t), Env: env, Logger: zerolog.Nop()}
	if configure != nil {
		configure(&cfg)
	}
	h.m = session.NewManager(cfg)
	h.rec = newRecorder(h.m.Subscribe(nil))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		h.m.Shutdown(ctx)
		h.rec.sub.Close()
	})
	return h
}

func (h *harness) start(opts session.StartOptions) *session.Session {
	h.t.Helper()
	if opts.Cwd == "" {
		opts.Cwd = h.project
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := h.m.Start(ctx, opts)
	require.NoError(h.t, err)
	return s
}

func (h *harness) exec(s *session.Session, prompt string) string {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	turn, err := s.Exec(ctx, prompt)
	require.NoError(h.t, err)
	return turn
}

// waitTurnEnd waits for the turn's terminal event and returns it.
func (h *harness) waitTurnEnd(turn string) activity.Event {
	h.t.Helper()
	return h.rec.wait(h.t, 90*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
}

func (h *harness) answer(s *session.Session, requestID, verdict, message string) bool {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	settled, err := s.Answer(ctx, requestID, activity.Verdict(verdict), message, activity.PermissionAuthorUser)
	require.NoError(h.t, err)
	return settled
}

func (h *harness) close(s *session.Session) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(h.t, s.Close(ctx))
}

// recorder keeps every event a subscription delivers and lets tests wait for one.
type recorder struct {
	sub    *session.Subscription
	mu     sync.Mutex
	cond   *sync.Cond
	events []activity.Event
}

func newRecorder(sub *session.Subscription) *recorder {
	r := &recorder{sub: sub}
	r.cond = sync.NewCond(&r.mu)
	go func() {
		for ev := range sub.C() {
			r.mu.Lock()
			r.events = append(r.events, ev)
			r.cond.Broadcast()
			r.mu.Unlock()
		}
	}()
	return r
}

// wait returns the first recorded event matching pred, waiting up to timeout.
func (r *recorder) wait(t testing.TB, timeout time.Duration, pred func(activity.Event) bool) activity.Event {
	t.Helper()
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() { r.mu.Lock(); r.cond.Broadcast(); r.mu.Unlock() })
	defer timer.Stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		for _, ev := range r.events {
			if pred(ev) {
				return ev
			}
		}
		if time.Now().After(deadline) {
			kinds := make([]string, 0, len(r.events))
			for _, ev := range r.events {
				kinds = append(kinds, string(ev.Kind))
			}
			t.Fatalf("timed out after %s waiting for an event; saw %v", timeout, kinds)
		}
		r.cond.Wait()
	}
}

// all returns the recorded events the filter accepts.
func (r *recorder) all(pred func(activity.Event) bool) []activity.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []activity.Event
	for _, ev := range r.events {
		if pred == nil || pred(ev) {
			out = append(out, ev)
		}
	}
	return out
}

func ofTurn(turn string) func(activity.Event) bool {
	return func(ev activity.Event) bool { return ev.Turn == turn }
}

func kindsOf(events []activity.Event) []activity.Kind {
	out := make([]activity.Kind, len(events))
	for i, ev := range events {
		out[i] = ev.Kind
	}
	return out
}
