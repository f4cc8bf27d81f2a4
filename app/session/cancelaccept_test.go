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
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/receipts"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// withholdFirstResponse makes "[withhold]" prompts get no response at all, and says when one was asked for:
// Claude Code echoes a prompt only with its response's first output, so until then the turn is dispatched but its
// identity is unresolved (no turn.accepted).
func withholdFirstResponse(h *harness) <-chan struct{} {
	asked := make(chan struct{}, 16)
	h.scriptWith(func(req *fakeapi.Request) (fakeapi.Reply, bool) {
		if !strings.Contains(req.LastUserText(), "[withhold]") || len(req.LastToolResults()) > 0 {
			return fakeapi.Reply{}, false
		}
		select {
		case asked <- struct{}{}:
		default:
		}
		return fakeapi.Reply{Withhold: true}, true
	})
	return asked
}

func waitAsked(t *testing.T, asked <-chan struct{}) {
	t.Helper()
	select {
	case <-asked:
	case <-time.After(60 * time.Second):
		t.Fatal("Claude Code never asked the API for the withheld response")
	}
}

func receiptOf(t *testing.T, store session.ReceiptLog, sessionID, turn string) receipts.Receipt {
	t.Helper()
	list, err := store.Read(sessionID)
	require.NoError(t, err)
	for _, r := range list {
		if r.Turn == turn {
			return r
		}
	}
	t.Fatalf("no receipt of turn %s", turn)
	return receipts.Receipt{}
}

// requireHistoryEndsCanceled reads the session's history back and requires the prompt sent as uuid to end in a
// cancel, as its receipt says.
func requireHistoryEndsCanceled(t *testing.T, h *harness, sessionID, uuid string, forced bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	page, err := h.m.History(ctx, sessionID, "", nil, 0)
	require.NoError(t, err)
	var ofPrompt []activity.Event
	for _, ev := range page.Events {
		if ev.Turn == uuid {
			ofPrompt = append(ofPrompt, ev)
		}
	}
	require.NotEmpty(t, ofPrompt, "the canceled prompt is in the transcript")
	require.Equal(t, activity.TurnStarted, ofPrompt[0].Kind)
	last := ofPrompt[len(ofPrompt)-1]
	require.Equal(t, activity.TurnCanceled, last.Kind, "history ends the turn as its receipt says: %v", kindsOf(ofPrompt))
	require.Equal(t, activity.CanceledDispositionProviderActive, last.Disposition)
	require.Equal(t, forced, last.Forced != nil && *last.Forced, "%+v", last)
}

// A turn canceled right after its prompt went out, before its identity was resolved: the cancel is confirmed
// only once the turn is bound to the prompt Claude Code persisted and that is in its receipt, so the reopened
// history still ends the turn "Canceled" (the receipt is matched to the transcript by that provider message).
func TestCancelBeforeAcceptanceStillReadsCanceledInHistory(t *testing.T) {
	var store *receipts.Store
	h := newHarnessWith(t, func(c *session.Config) {
		var err error
		store, err = receipts.Open(t.TempDir())
		require.NoError(t, err)
		c.Receipts = store
	})
	t.Cleanup(func() { _ = store.Close() })
	asked := withholdFirstResponse(h)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[withhold] stop me before you answer")
	waitAsked(t, asked)
	started := h.rec.wait(t, 10*time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnStarted })
	require.NotEmpty(t, started.UUID)
	require.Empty(t, h.rec.all(func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnAccepted }),
		"precondition: the turn is not bound yet when the cancel comes")

	rep := h.cancel(s, turn, session.DefaultCancelBudgets)
	require.Equal(t, protocol.CancelReply{Disposition: "provider_active", Turn: turn, Phase: "dispatched", Forced: false}, rep)
	// Read at once: the confirmation means the receipt is final.
	r := receiptOf(t, store, s.ID(), turn)
	require.True(t, r.Ended, "%+v", r)
	require.Equal(t, receipts.OutcomeCanceled, r.Outcome)
	require.Equal(t, "provider_active", r.Disposition)
	require.Equal(t, started.UUID, r.ProviderMessage, "the receipt names the prompt Claude Code persisted")

	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCanceled, end.Kind)
	kinds := kindsOf(h.rec.all(func(ev activity.Event) bool {
		return ev.Turn == turn && (ev.Kind == activity.TurnAccepted || ev.Terminal())
	}))
	require.Equal(t, []activity.Kind{activity.TurnAccepted, activity.TurnCanceled}, kinds, "bound once, before its one end")
	h.close(s)

	requireHistoryEndsCanceled(t, h, s.ID(), started.UUID, false)
}

// gatedReceipts is the real receipt log whose turn ends wait for a gate: a disk that is slow to take the end of a
// turn (a real one cannot be made slow on cue), so a cancel's confirmation is seen to wait for it.
type gatedReceipts struct {
	*receipts.Store
	gate    chan struct{}
	once    sync.Once
	waiting chan struct{} // closed when an end first waits at the gate
}

func (g *gatedReceipts) Append(r receipts.Record) error {
	if r.Type == receipts.RecordEnded {
		g.once.Do(func() { close(g.waiting) })
		<-g.gate
	}
	return g.Store.Append(r)
}

// Claude Code stopped dead (SIGSTOP) after it asked for the response, before the turn was bound: the forced cancel
// is not confirmed while the turn's end is not in its receipt (here, a receipt write that does not finish), and
// once written the receipt reads canceled, forced, and the reopened history agrees with it.
func TestCancelIsConfirmedOnlyOnceTheTurnsEndIsRecorded(t *testing.T) {
	var gated *gatedReceipts
	h := newHarnessWith(t, func(c *session.Config) {
		store, err := receipts.Open(t.TempDir())
		require.NoError(t, err)
		gated = &gatedReceipts{Store: store, gate: make(chan struct{}), waiting: make(chan struct{})}
		c.Receipts = gated
	})
	var opened sync.Once
	openGate := func() { opened.Do(func() { close(gated.gate) }) }
	t.Cleanup(openGate) // before the harness shuts down (cleanups run last-in first-out)
	asked := withholdFirstResponse(h)
	s := h.start(sessionOpts())
	turn := h.exec(s, "[withhold] stall before answering")
	waitAsked(t, asked)
	pid := claudePID(t, s)
	testenv.Freeze(t, pid)

	rep, err := s.Cancel(context.Background(), turn, session.CancelBudgets{Interrupt: time.Second, Drain: time.Second})
	require.Error(t, err, "no confirmation while the turn's end is not recorded: %+v", rep)
	require.Contains(t, err.Error(), "not recorded")
	<-gated.waiting // the turn did end: its end was on its way to the log
	openGate()
	end := h.waitTurnEnd(turn)
	require.Equal(t, activity.TurnCanceled, end.Kind)
	r := receiptOf(t, gated, s.ID(), turn)
	require.True(t, r.Ended && r.Outcome == receipts.OutcomeCanceled && r.Forced, "%+v", r)
	require.False(t, testenv.Alive(pid))
	h.close(s)

	// Whether Claude Code persisted the prompt before it was stopped is its own timing; either way the receipt
	// and the reopened history agree.
	t.Logf("the prompt was persisted before the stop: %v", r.ProviderMessage != "")
	if r.ProviderMessage == "" {
		page, err := h.m.History(context.Background(), s.ID(), "", nil, 0)
		require.NoError(t, err)
		for _, ev := range page.Events {
			require.NotContains(t, ev.Prompt, "stall before answering", "a prompt Claude Code never persisted has no row")
		}
		return
	}
	started := h.rec.wait(t, time.Second, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.TurnStarted })
	require.Equal(t, started.UUID, r.ProviderMessage)
	requireHistoryEndsCanceled(t, h, s.ID(), started.UUID, true)
}
