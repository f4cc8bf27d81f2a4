package session_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// idleClock stands in for the idle countdowns: none runs out until the test says so.
type idleClock struct {
	mu    sync.Mutex
	armed []*countdown
}

type countdown struct {
	f       func()
	stopped bool
}

func (c *idleClock) afterFunc(_ time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	cd := &countdown{f: f}
	c.armed = append(c.armed, cd)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !cd.stopped
		cd.stopped = true
		return was
	}
}

// runOut runs out every countdown still armed (as the real timers would, one after another) and reports how many.
func (c *idleClock) runOut() int {
	c.mu.Lock()
	var due []*countdown
	for _, cd := range c.armed {
		if !cd.stopped {
			cd.stopped = true
			due = append(due, cd)
		}
	}
	c.armed = nil
	c.mu.Unlock()
	for _, cd := range due {
		cd.f()
	}
	return len(due)
}

func newSleepyHarness(t *testing.T, configure func(*session.Config)) (*harness, *idleClock) {
	clock := &idleClock{}
	h := newHarnessWith(t, func(cfg *session.Config) {
		cfg.Idle = time.Hour // never reached: the test runs the countdowns out itself
		cfg.AfterFunc = clock.afterFunc
		if configure != nil {
			configure(cfg)
		}
	})
	return h, clock
}

func stateEvents(h *harness, id string) []activity.SessionState {
	var out []activity.SessionState
	for _, ev := range h.rec.all(func(ev activity.Event) bool { return ev.Session == id && ev.State != "" }) {
		out = append(out, ev.State)
	}
	return out
}

// processesOf is the session's sidecar and its children (the claude CLI).
func processesOf(t *testing.T, s *session.Session) []int {
	pid := s.SidecarPID()
	require.NotZero(t, pid, "the session has a sidecar")
	return append([]int{pid}, testenv.ChildPIDs(pid)...)
}

func TestIdleSessionSleepsAndWakesWithItsHistory(t *testing.T) {
	h, clock := newSleepyHarness(t, nil)
	s := h.start(session.StartOptions{PermissionMode: "acceptEdits", Model: "claude-sleepy-1"})
	turn := h.exec(s, "remember the word alpha")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	procs := processesOf(t, s)
	require.GreaterOrEqual(t, len(procs), 2, "a sidecar and its claude child run while awake")

	require.Equal(t, 1, clock.runOut(), "the turn's end armed the idle countdown")
	h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool { return ev.Session == s.ID() && ev.State == activity.SessionStateAsleep })
	require.True(t, s.State().Asleep)
	require.Zero(t, s.SidecarPID())
	testenv.WaitGone(t, procs, 10*time.Second) // bounded: the close was acknowledged only after the query ended
	_, open := h.m.Get(s.ID())
	require.True(t, open, "an asleep session stays open")
	require.Empty(t, h.rec.all(func(ev activity.Event) bool { return ev.Kind == activity.SessionClosed }),
		"falling asleep is not closing")

	before := len(h.api.Requests())
	turn = h.exec(s, "[recall]")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	require.Contains(t, assistantTexts(h.rec.all(ofTurn(turn))), "Earlier you said: remember the word alpha")
	require.Equal(t, []activity.SessionState{activity.SessionStateAsleep, activity.SessionStateWaking, activity.SessionStateAwake},
		stateEvents(h, s.ID()))
	started := h.rec.all(func(ev activity.Event) bool { return ev.Kind == activity.SessionStarted })
	require.Len(t, started, 1, "waking is not a new start in the conversation")

	var recallReq bool
	for _, req := range h.api.Requests()[before:] {
		if strings.Contains(req.LastUserText(), "[recall]") {
			recallReq = true
			require.Equal(t, "claude-sleepy-1", req.Model, "the model is kept across sleep")
			require.Contains(t, strings.Join(req.UserTexts(), "\n"), "remember the word alpha", "the API request carries the earlier turns")
		}
	}
	require.True(t, recallReq)
	st := s.State()
	require.False(t, st.Asleep)
	require.Equal(t, activity.PermissionMode("acceptEdits"), st.PermissionMode)
	require.NotContains(t, processesOf(t, s), procs[0], "a fresh sidecar")

	// Asleep again, then closed: no process to stop, and every front end is told it closed.
	require.Equal(t, 1, clock.runOut())
	require.True(t, s.State().Asleep)
	h.close(s)
	h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool { return ev.Kind == activity.SessionClosed && ev.Session == s.ID() })
	_, open = h.m.Get(s.ID())
	require.False(t, open)
}

// A running session lends its sidecar for a request that needs no session (the index's transcript jobs); an asleep
// one has none to lend.
func TestARunningSessionLendsItsSidecar(t *testing.T) {
	h, clock := newSleepyHarness(t, nil)
	s := h.start(session.StartOptions{PermissionMode: "acceptEdits", Model: "claude-sleepy-1"})
	lent := h.m.LendSidecar(s.ID())
	require.NotNil(t, lent)
	require.Equal(t, s.SidecarPID(), lent.PID())
	require.Same(t, lent, h.m.LendSidecar("another-session"), "any running sidecar serves another session's job")

	require.Equal(t, 1, clock.runOut())
	h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool { return ev.Session == s.ID() && ev.State == activity.SessionStateAsleep })
	require.Nil(t, h.m.LendSidecar(s.ID()), "an asleep session lends nothing")
}

func TestSessionWithWorkDoesNotSleep(t *testing.T) {
	h, clock := newSleepyHarness(t, nil)
	s := h.start(sessionOpts())
	ctx := context.Background()

	// A pending permission request.
	marker := filepath.Join(h.project, "asked")
	turn := h.exec(s, `[tool Bash {"command":"touch `+marker+`"}]`)
	req := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.PermissionRequested })
	clock.runOut()
	require.ErrorIs(t, s.Sleep(ctx), session.ErrBusy)
	require.ErrorContains(t, s.Sleep(ctx), "permission request")
	require.False(t, s.State().Asleep)
	h.answer(s, req.RequestID, "allow", "")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)

	// A running turn with a prompt queued behind it.
	running := h.exec(s, "[hold] keep going")
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == running && ev.Kind == activity.MessageDelta })
	queued := h.exec(s, "then this")
	require.ErrorContains(t, s.Sleep(ctx), "a turn is running")
	h.release()
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(running).Kind)
	// The queued prompt alone still keeps it awake until it ends.
	h.waitTurnEnd(queued)
	require.Empty(t, stateEvents(h, s.ID()), "never asleep while it had work")

	// With the work done it may sleep: the refusals above were the work's doing.
	require.NoError(t, s.Sleep(ctx))
	require.True(t, s.State().Asleep)
}

func TestSessionWithBackgroundTasksDoesNotSleep(t *testing.T) {
	h, _ := newSleepyHarness(t, nil)
	s := h.start(session.StartOptions{PermissionMode: "acceptEdits"})
	gate := filepath.Join(h.project, "go-on")
	command := `while [ ! -f ` + gate + ` ]; do sleep 0.1; done; echo finished`
	input, err := json.Marshal(map[string]any{"command": command, "run_in_background": true, "description": "wait for the gate"})
	require.NoError(t, err)
	turn := h.exec(s, "[tool Bash "+string(input)+"]")
	// (No permission to answer: the scripted project allows the call; allowAll would wait for the turn's end,
	// which the live task holds back.)
	h.rec.wait(t, 30*time.Second, func(ev activity.Event) bool { return ev.Kind == activity.TasksUpdated && len(ev.Tasks) > 0 })

	// The launching turn is held open while its task runs (a continuation is due), so either reason may be named;
	// what matters is that the session stays awake while the task is live.
	require.True(t, s.BackgroundState().Busy(), "a live background task is background work")
	require.Error(t, s.Sleep(context.Background()))
	require.False(t, s.State().Asleep)

	require.NoError(t, os.WriteFile(gate, nil, 0o644)) // the task ends; its level report empties the set
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Kind == activity.TasksUpdated && len(ev.Tasks) == 0 })
	h.waitTurnEnd(turn)
	require.Eventually(t, func() bool { return !s.BackgroundState().Busy() }, 60*time.Second, 50*time.Millisecond,
		"the follow-up after the task ends the background work")
	require.NoError(t, s.Sleep(context.Background()), "with the task and its follow-up done it may sleep")
	require.True(t, s.State().Asleep)
}

func TestFailedWakeReadsAsAnErrorAndCanBeRetried(t *testing.T) {
	link := filepath.Join(testenv.TempDir(t), "claude")
	h, clock := newSleepyHarness(t, func(cfg *session.Config) {
		for i, kv := range cfg.Env {
			if claude, ok := strings.CutPrefix(kv, "CLAUDE_CODE_EXECUTABLE="); ok {
				require.NoError(t, os.Symlink(claude, link))
				cfg.Env[i] = "CLAUDE_CODE_EXECUTABLE=" + link
			}
		}
	})
	s := h.start(sessionOpts())
	turn := h.exec(s, "remember the word beta")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	require.Equal(t, 1, clock.runOut())
	require.True(t, s.State().Asleep)

	target, err := os.Readlink(link)
	require.NoError(t, err)
	require.NoError(t, os.Remove(link)) // the executable is gone
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err = s.Exec(ctx, "[recall]")
	require.Error(t, err)
	require.Contains(t, err.Error(), "wake the session")
	require.Contains(t, err.Error(), link+", which does not exist")
	require.True(t, s.State().Asleep, "a failed wake leaves the session asleep, open and retryable")
	// Published before Exec returned; the recorder reads the bus on its own goroutine.
	waking := h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool { return ev.State == activity.SessionStateWaking })
	h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool { return ev.State == activity.SessionStateAsleep && ev.Seq > waking.Seq })
	require.Equal(t, []activity.SessionState{activity.SessionStateAsleep, activity.SessionStateWaking, activity.SessionStateAsleep},
		stateEvents(h, s.ID()))
	require.Empty(t, h.rec.all(func(ev activity.Event) bool {
		return ev.Kind == activity.SessionClosed || ev.Kind == activity.TurnQueued && ev.Prompt == "[recall]"
	}), "no turn was made and the session did not close")

	require.NoError(t, os.Symlink(target, link)) // fixed: the retry wakes it
	turn = h.exec(s, "[recall]")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	require.Contains(t, assistantTexts(h.rec.all(ofTurn(turn))), "Earlier you said: remember the word beta")
}

func TestParseIdle(t *testing.T) {
	for in, want := range map[string]time.Duration{"": session.DefaultIdle, "0": 0, "30s": 30 * time.Second, " 10m ": 10 * time.Minute} {
		got, err := session.ParseIdle(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, in := range []string{"soon", "-1m", "10"} {
		_, err := session.ParseIdle(in)
		require.ErrorContains(t, err, "BATON_SESSION_IDLE", in)
	}
}

// A session that never ran a prompt has no transcript to resume: it wakes as it first started, under its id.
func TestSessionWithoutPromptsSleepsAndWakes(t *testing.T) {
	h, clock := newSleepyHarness(t, nil)
	s := h.start(sessionOpts())
	procs := processesOf(t, s)
	require.Equal(t, 1, clock.runOut(), "opening armed the idle countdown")
	require.True(t, s.State().Asleep)
	testenv.WaitGone(t, procs, 10*time.Second)
	turn := h.exec(s, "hello after a nap")
	require.Equal(t, activity.TurnCompleted, h.waitTurnEnd(turn).Kind)
	require.Equal(t, s.ID(), h.rec.all(ofTurn(turn))[0].Session)
}
