//go:build !windows

package session_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/receipts"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// longBash is a prompt whose reply runs a real shell command that lasts far longer than any test: it writes its
// own pid to file first (then becomes the sleep), so the test knows it runs and can end it.
func longBash(file string) string {
	return "[bash sh -c 'echo $$ > " + file + "; exec sleep 41']"
}

// waitRunning waits until the long command wrote its pid, and makes sure it ends with the test.
func (h *harness) waitRunning(file string) int {
	h.t.Helper()
	path := filepath.Join(h.project, file)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			require.NoError(h.t, err)
			h.t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
			return pid
		}
		require.False(h.t, time.Now().After(deadline), "the long command never started")
		time.Sleep(20 * time.Millisecond)
	}
}

// settleCase runs body against a session with receipts, once with claude answering and once with claude stopped
// dead (SIGSTOP, by freeze, just before the cancel), then reads the session's history back.
type settleCase struct {
	h       *harness
	s       *session.Session
	stopped bool
	budgets session.CancelBudgets
}

func eachClaude(t *testing.T, body func(t *testing.T, c *settleCase)) {
	for _, stopped := range []bool{false, true} {
		name := "responsive claude"
		if stopped {
			name = "SIGSTOPped claude"
		}
		t.Run(name, func(t *testing.T) {
			store, err := receipts.Open(t.TempDir())
			require.NoError(t, err)
			t.Cleanup(func() { _ = store.Close() })
			h := newHarnessWith(t, func(cfg *session.Config) { cfg.Receipts = store })
			c := &settleCase{h: h, s: h.start(sessionOpts()), stopped: stopped,
				budgets: session.CancelBudgets{Interrupt: 2 * time.Second, Drain: 2 * time.Second}}
			body(t, c)
		})
	}
}

// cancel stops the turn (after stopping claude dead, for the SIGSTOP case) and returns the turn's end.
func (c *settleCase) cancel(t *testing.T, turn string) activity.Event {
	if c.stopped {
		pid := claudePID(t, c.s)
		require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	}
	rep := c.h.cancel(c.s, turn, c.budgets)
	require.Equal(t, activity.CancelDispositionProviderActive, rep.Disposition)
	require.Equal(t, c.stopped, rep.Forced)
	end := c.h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCanceled, end.Kind)
	return end
}

// history closes the session and reads its history back, as a reload does.
func (c *settleCase) history(t *testing.T) []activity.Event {
	c.h.close(c.s)
	page, err := c.h.m.History(context.Background(), c.s.ID(), "", nil, 0)
	require.NoError(t, err)
	return page.Events
}

func TestCancelSettlesTheRunningTool(t *testing.T) {
	eachClaude(t, func(t *testing.T, c *settleCase) {
		turn := c.h.exec(c.s, longBash("tool.pid"))
		go c.h.allowAll(c.s, turn)
		started := c.h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.ToolStarted })
		c.h.waitRunning("tool.pid")
		end := c.cancel(t, turn)
		ends := c.h.rec.all(func(ev activity.Event) bool { return ev.ToolUseID == started.ToolUseID && toolEnd(ev.Kind) })
		require.Len(t, ends, 1, "one terminal event for the call: %v", kindsOf(ends))
		require.Equal(t, activity.ToolInterrupted, ends[0].Kind)
		require.Equal(t, activity.ToolInterruptCauseCancel, ends[0].Cause)
		require.Equal(t, "Bash", ends[0].Name)
		require.Less(t, ends[0].Seq, end.Seq, "the call settles before its turn ends")

		// After a reload: the same settled card (a responsive claude filed the call as stopped; a killed one filed
		// nothing, and the receipt says the turn was canceled).
		var toolEnds []activity.Event
		for _, ev := range c.history(t) {
			if ev.ToolUseID == started.ToolUseID && toolEnd(ev.Kind) {
				toolEnds = append(toolEnds, ev)
			}
		}
		require.Len(t, toolEnds, 1, "history settles the call once")
		require.Equal(t, activity.ToolInterrupted, toolEnds[0].Kind)
		require.Equal(t, activity.ToolInterruptCauseCancel, toolEnds[0].Cause)
	})
}

func TestCancelKeepsTheStreamedReply(t *testing.T) {
	eachClaude(t, func(t *testing.T, c *settleCase) {
		reply := c.h.exec(c.s, "[hold] a long answer")
		delta := c.h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == reply && ev.Kind == activity.MessageDelta })
		end := c.cancel(t, reply)
		c.h.release()
		kept := c.h.rec.all(func(ev activity.Event) bool { return ev.Turn == reply && ev.Kind == activity.MessageCompleted })
		require.Len(t, kept, 1, "the words streamed so far are kept")
		require.Equal(t, delta.Text, kept[0].Text, "all that streamed: the reply holds after its first piece")
		require.NotNil(t, kept[0].Stopped)
		require.Less(t, kept[0].Seq, end.Seq)
		require.False(t, kept[0].Ephemeral, "kept in the session's log, so a reconnecting window sees it")

		// After a reload: a responsive claude filed the cut-off block, and history marks it stopped; a killed one
		// never wrote it, and Baton keeps no reply text of its own (PROTOCOL.md, "Settling").
		var words []activity.Event
		for _, ev := range c.history(t) {
			if ev.Kind == activity.MessageCompleted && ev.Role == "assistant" && strings.HasPrefix(ev.Text, "You said: [hold]") {
				words = append(words, ev)
			}
		}
		if c.stopped {
			require.Empty(t, words)
			return
		}
		require.Len(t, words, 1)
		require.Equal(t, delta.Text, words[0].Text)
		require.NotNil(t, words[0].Stopped, "history marks the cut-off reply stopped")
	})
}

func toolEnd(kind activity.Kind) bool {
	return kind == activity.ToolCompleted || kind == activity.ToolFailed || kind == activity.ToolInterrupted
}

// The sidecar dies while a tool runs: nobody but the host knows the call had no end, so the host closes it
// before it fails the turn.
func TestSidecarDeathSettlesTheOpenTool(t *testing.T) {
	h := newHarness(t)
	s := h.start(sessionOpts())
	turn := h.exec(s, longBash("dead.pid"))
	go h.allowAll(s, turn)
	started := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.ToolStarted })
	h.waitRunning("dead.pid")
	claude := claudePID(t, s)
	t.Cleanup(func() { _ = syscall.Kill(claude, syscall.SIGKILL) })
	require.NoError(t, syscall.Kill(s.SidecarPID(), syscall.SIGKILL))

	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnFailed, end.Kind)
	require.Equal(t, "sidecar_exited", end.Code)
	ends := h.rec.all(func(ev activity.Event) bool { return ev.ToolUseID == started.ToolUseID && toolEnd(ev.Kind) })
	require.Len(t, ends, 1, "one terminal event for the call: %v", kindsOf(ends))
	require.Equal(t, activity.ToolInterrupted, ends[0].Kind)
	require.Equal(t, activity.ToolInterruptCauseSidecarExited, ends[0].Cause)
	require.Less(t, ends[0].Seq, end.Seq, "the call settles before its turn fails")
	<-s.Done()
	testenv.WaitGone(t, []int{claude}, 30*time.Second)
}

// endless drops every turn end: the receipts a host that died mid-turn leaves behind.
type endless struct{ *receipts.Store }

func (e endless) Append(r receipts.Record) error {
	if r.Type == receipts.RecordEnded {
		return nil
	}
	return e.Store.Append(r)
}

// Baton dies while a tool runs: the transcript has the call and no result, the receipt has no end. History,
// read by the next Baton, ends the turn host_exited and closes the call before that end.
func TestHostCrashSettlesTheOpenToolInHistory(t *testing.T) {
	dir := t.TempDir()
	first, err := receipts.Open(dir)
	require.NoError(t, err)
	h := newHarnessWith(t, func(cfg *session.Config) { cfg.Receipts = endless{first} })
	s := h.start(sessionOpts())
	turn := h.exec(s, longBash("crash.pid"))
	go h.allowAll(s, turn)
	started := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.ToolStarted })
	h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnAccepted })
	h.waitRunning("crash.pid")
	claude := claudePID(t, s)
	t.Cleanup(func() { _ = syscall.Kill(claude, syscall.SIGKILL) })
	require.NoError(t, syscall.Kill(claude, syscall.SIGKILL)) // nothing of the turn's end reaches the transcript
	require.NoError(t, syscall.Kill(s.SidecarPID(), syscall.SIGKILL))
	<-s.Done()
	require.NoError(t, first.Close()) // the crashed host's lock is free

	next, err := receipts.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = next.Close() })
	reader := session.NewManager(session.Config{SidecarPath: testenv.SidecarPath(t), Env: h.env(), Logger: zerolog.Nop(), Receipts: next})
	page, err := reader.History(context.Background(), s.ID(), "", nil, 0)
	require.NoError(t, err)
	var tail []activity.Kind
	for _, ev := range page.Events {
		if ev.ToolUseID == started.ToolUseID && toolEnd(ev.Kind) {
			require.Equal(t, activity.ToolInterrupted, ev.Kind)
			require.Equal(t, activity.ToolInterruptCauseHostExited, ev.Cause)
		}
		if ev.ToolUseID == started.ToolUseID || ev.Terminal() {
			tail = append(tail, ev.Kind)
		}
	}
	require.Equal(t, []activity.Kind{activity.ToolStarted, activity.ToolInterrupted, activity.TurnFailed}, tail)
}
