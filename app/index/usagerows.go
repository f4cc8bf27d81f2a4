package index

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
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

// A run's usage rows are written with the run, usageBatch to a statement: a statement per row cost the build
// about as much again as the rows' own writing (PERFORMANCE.md, "Usage rows in batches"). OR FAIL, as a statement
// of many rows that may abort takes a savepoint, at which FTS5 writes its pending terms out (a segment each, and
// their merges: the batches cost more than the rows one by one). The job cleared its positions, so no row
// conflicts, and a failed write ends the job's transaction anyway.
const usageBatch = 16

const (
	insertUsageHead = "INSERT OR FAIL INTO usage(session, gen, seq, turn, at, model, message, input, output, cache_read, cache_write, cost) VALUES "
	usageValues     = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
	insertUsage     = insertUsageHead + usageValues
)

var insertUsageBatch = insertUsageHead + strings.Repeat(usageValues+", ", usageBatch-1) + usageValues

// usageRows are the usage rows of a job's run not written yet, each at its item's position.
type usageRows struct {
	seqs []int64
	rows []usageRecord
	args []any
}

func (u *usageRows) add(seq int64, r usageRecord) {
	u.seqs, u.rows = append(u.seqs, seq), append(u.rows, r)
}

// write writes the rows, usageBatch at a time with batch and the rest one by one with one, and empties u.
func (u *usageRows) write(ctx context.Context, batch, one *sql.Stmt, session string, gen int64) error {
	i := 0
	for ; len(u.rows)-i >= usageBatch; i += usageBatch {
		if err := u.exec(ctx, batch, session, gen, i, usageBatch); err != nil {
			return err
		}
	}
	for ; i < len(u.rows); i++ {
		if err := u.exec(ctx, one, session, gen, i, 1); err != nil {
			return err
		}
	}
	u.seqs, u.rows = u.seqs[:0], u.rows[:0]
	return nil
}

func (u *usageRows) exec(ctx context.Context, st *sql.Stmt, session string, gen int64, from, n int) error {
	u.args = u.args[:0]
	for k := from; k < from+n; k++ {
		r := u.rows[k]
		u.args = append(u.args, session, gen, u.seqs[k], r.turn, r.at, r.model, r.message, r.input, r.output, r.cacheRead,
			r.cacheWrite, r.cost)
	}
	if _, err := st.ExecContext(ctx, u.args...); err != nil {
		return fmt.Errorf("write the usage of %s: %w", session, err)
	}
	return nil
}
