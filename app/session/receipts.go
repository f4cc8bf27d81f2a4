package session

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/receipts"
)

// ReceiptLog is where sessions record each turn they run (receipts.Store); nil keeps no receipts.
type ReceiptLog interface {
	Append(receipts.Record) error
	Read(session string) ([]receipts.Receipt, error)
}

// accepted records a prompt the host accepted, before anything of its turn is announced. The prompt's text is
// never stored, only its sha256.
func (s *Session) recordAccepted(turn, prompt string) error {
	if s.receipts == nil {
		return nil
	}
	sum := sha256.Sum256([]byte(prompt))
	if err := s.receipts.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: turn, Session: s.id,
		PromptSHA256: hex.EncodeToString(sum[:])}); err != nil {
		return err
	}
	s.receiptEnds.open(turn)
	return nil
}

// recordEvent adds what a turn event says to its receipt; it runs before the event is published, so the receipt
// of a turn is on disk before that turn's streaming reaches anyone. A write that fails is logged: the turn
// carries on, and its receipt reads as unfinished (host_exited once this host is gone).
func (s *Session) recordEvent(ev activity.Event) {
	if s.receipts == nil || ev.Turn == "" {
		return
	}
	// Output no person's prompt started gets no receipt: only prompts the host accepted have one.
	s.mu.Lock()
	continuation := s.isContinuation(ev.Turn)
	s.mu.Unlock()
	if continuation {
		return
	}
	var rec receipts.Record
	switch ev.Kind {
	case activity.TurnAccepted:
		// The identity barrier's result: the provider turn this Baton turn is bound to.
		rec = receipts.Record{Type: receipts.RecordStarted, ProviderMessage: ev.ProviderMessage}
	case activity.UsageUpdated:
		if !ev.Ephemeral && ev.TurnOutputTokens != nil {
			s.mu.Lock()
			s.turnTokens[ev.Turn] = int(*ev.TurnOutputTokens)
			s.mu.Unlock()
		}
		return
	case activity.TurnCompleted:
		rec = receipts.Record{Type: receipts.RecordEnded, Outcome: receipts.OutcomeCompleted}
		if ev.DurationMs != nil {
			rec.DurationMs = int64(*ev.DurationMs)
		}
		if ev.CostUsd != nil {
			rec.CostUSD = *ev.CostUsd
		}
	case activity.TurnFailed:
		rec = receipts.Record{Type: receipts.RecordEnded, Outcome: receipts.OutcomeFailed, Code: ev.Code}
	case activity.TurnCanceled:
		rec = receipts.Record{Type: receipts.RecordEnded, Outcome: receipts.OutcomeCanceled,
			Disposition: string(ev.Disposition), Forced: ev.Forced != nil && *ev.Forced}
	default:
		return
	}
	rec.Turn, rec.Time = ev.Turn, ev.Time
	if rec.Type == receipts.RecordEnded {
		s.mu.Lock()
		rec.OutputTokens = s.turnTokens[ev.Turn]
		delete(s.turnTokens, ev.Turn)
		s.mu.Unlock()
	}
	if err := s.receipts.Append(rec); err != nil {
		s.log.Error().Err(err).Str("session", s.id).Str("turn", ev.Turn).Msg("turn receipt not written")
	}
	if rec.Type == receipts.RecordEnded {
		s.receiptEnds.ended(ev.Turn)
	}
}
