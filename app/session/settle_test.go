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

func TestCancelSettlesTheOpenToolAndKeepsTheStreamedReply(t *testing.T) {
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
			s := h.start(sessionOpts())
			budgets := session.CancelBudgets{Interrupt: 2 * time.Second, Drain: 2 * time.Second}
			freeze := func() {
				if stopped {
					pid := claudePID(t, s)
					require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
					t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
				}
			}

			turn := h.exec(s, longBash("tool.pid"))
			go h.allowAll(s, turn)
			started := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.ToolStarted })
			h.waitRunning("tool.pid")
			freeze()
			rep := h.cancel(s, turn, budgets)
			require.Equal(t, activity.CancelDispositionProviderActive, rep.Disposition)
			require.Equal(t, stopped, rep.Forced)
			end := h.waitTurnEnd(turn)
			require.Equal(t, activity.TurnCanceled, end.Kind)
			ends := h.rec.all(func(ev activity.Event) bool { return ev.ToolUseID == started.ToolUseID && toolEnd(ev.Kind) })
			require.Len(t, ends, 1, "one terminal event for the call: %v", kindsOf(ends))
			require.Equal(t, activity.ToolInterrupted, ends[0].Kind)
			require.Equal(t, activity.ToolInterruptCauseCancel, ends[0].Cause)
			require.Equal(t, "Bash", ends[0].Name)
			require.Less(t, ends[0].Seq, end.Seq, "the call settles before its turn ends")

			reply := h.exec(s, "[hold] a long answer")
			delta := h.rec.wait(t, 60*time.Second, func(ev activity.Event) bool { return ev.Turn == reply && ev.Kind == activity.MessageDelta })
			freeze()
			rep = h.cancel(s, reply, budgets)
			require.Equal(t, activity.CancelDispositionProviderActive, rep.Disposition)
			end = h.waitTurnEnd(reply)
			h.release()
			kept := h.rec.all(func(ev activity.Event) bool { return ev.Turn == reply && ev.Kind == activity.MessageCompleted })
			require.Len(t, kept, 1, "the words streamed so far are kept")
			require.Equal(t, delta.Text, kept[0].Text)
			require.NotNil(t, kept[0].Stopped)
			require.Less(t, kept[0].Seq, end.Seq)
			require.False(t, kept[0].Ephemeral)

			// After a reload: history shows the same settled card and, where Claude Code filed the cut-off block
			// (a responsive claude does; a stopped one is killed before it writes it), the same stopped words.
			h.close(s)
			page, err := h.m.History(context.Background(), s.ID(), "", nil, 0)
			require.NoError(t, err)
			var toolEnds []activity.Event
			var words []activity.Event
			for _, ev := range page.Events {
				if ev.ToolUseID == started.ToolUseID && toolEnd(ev.Kind) {
					toolEnds = append(toolEnds, ev)
				}
				if ev.Kind == activity.MessageCompleted && ev.Role == "assistant" && strings.HasPrefix(ev.Text, "You said: [hold]") {
					words = append(words, ev)
				}
			}
			require.Len(t, toolEnds, 1, "history settles the call once")
			require.Equal(t, activity.ToolInterrupted, toolEnds[0].Kind)
			require.Equal(t, activity.ToolInterruptCauseCancel, toolEnds[0].Cause, "the receipt says the turn was canceled")
			if !stopped {
				require.Len(t, words, 1)
				require.Equal(t, delta.Text, words[0].Text)
				require.NotNil(t, words[0].Stopped, "history marks the cut-off reply stopped")
			} else {
				require.Empty(t, words, "a killed claude filed nothing of the reply (see PROTOCOL.md, Settling)")
			}
		})
	}
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
