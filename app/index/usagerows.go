package index

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// usageFields are the fields of usage.recorded (one API response's tokens) and of a turn's end (the cost Claude
// Code reported for it).
type usageFields struct {
	MessageID           string   `json:"messageId"`
	Model               string   `json:"model"`
	InputTokens         int64    `json:"inputTokens"`
	OutputTokens        int64    `json:"outputTokens"`
	CacheReadTokens     int64    `json:"cacheReadTokens"`
	CacheCreationTokens int64    `json:"cacheCreationTokens"`
	CostUsd             *float64 `json:"costUsd"`
}

// usageRecord is one row of the usage table: an API response's tokens, or a turn's reported cost.
type usageRecord struct {
	turn, model, message                 string
	at                                   int64 // unix ms
	input, output, cacheRead, cacheWrite int64
	cost                                 sql.NullFloat64
}

// usageOf is an event's usage row: usage.recorded, or a turn's end with a cost above 0 (history reports 0 for a
// turn whose receipt has no cost).
func usageOf(e eventFields) (usageRecord, bool) {
	at, err := time.Parse(time.RFC3339Nano, e.Time)
	if err != nil {
		return usageRecord{}, false
	}
	r := usageRecord{turn: e.Turn, at: at.UnixMilli()}
	switch e.Kind {
	case "usage.recorded":
		r.model, r.message = e.Model, e.MessageID
		r.input, r.output, r.cacheRead, r.cacheWrite = e.InputTokens, e.OutputTokens, e.CacheReadTokens, e.CacheCreationTokens
		return r, true
	case "turn.completed", "turn.failed", "turn.canceled":
		if e.CostUsd == nil || *e.CostUsd <= 0 {
			return usageRecord{}, false
		}
		r.cost = sql.NullFloat64{Float64: *e.CostUsd, Valid: true}
		return r, true
	default: // no other kind says what a turn cost
		return usageRecord{}, false
	}
}

const insertUsage = `INSERT INTO usage(session, gen, seq, turn, at, model, message, input, output, cache_read, cache_write, cost)
	VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func writeUsage(ctx context.Context, st *sql.Stmt, session string, gen, seq int64, r usageRecord) error {
	if _, err := st.ExecContext(ctx, session, gen, seq, r.turn, r.at, r.model, r.message, r.input, r.output, r.cacheRead, r.cacheWrite, r.cost); err != nil {
		return fmt.Errorf("write the usage of %s: %w", session, err)
	}
	return nil
}
