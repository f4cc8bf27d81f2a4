package index

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// rollupBucket is the rollup's period: a quarter hour, so every local day in every time zone (all offsets are
// whole quarter hours) is a whole number of buckets and a report by day, week or month reads the rollup alone.
const rollupBucket = int64(15 * time.Minute / time.Millisecond)

// rollupSchema: usage_rollup is every session's usage, each response counted once (usage.go), summed by quarter
// hour, model and whether a turn's reported cost covers it. Written with the session's generation in the same
// transaction (finish), so a report reads a few rows per session instead of every response. Reported rows carry
// their share of the turns' cost; the others carry tokens only, priced when read, so a new price table needs no
// rebuild.
const rollupSchema = `
CREATE TABLE IF NOT EXISTS usage_rollup (
	session TEXT NOT NULL,
	bucket INTEGER NOT NULL,
	model TEXT NOT NULL,
	reported INTEGER NOT NULL,
	input INTEGER NOT NULL,
	output INTEGER NOT NULL,
	cache_read INTEGER NOT NULL,
	cache_write INTEGER NOT NULL,
	cost REAL NOT NULL,
	PRIMARY KEY (session, bucket, model, reported)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS usage_rollup_bucket ON usage_rollup(bucket);
`

// rollupVersion marks an index whose rollup is complete; one without it (made before the rollup) is rolled up
// once when opened.
const rollupVersion = "1"

type rollupKey struct {
	bucket   int64
	model    string
	reported bool
}

// rollupSession writes a session's rollup anew from its current generation's usage rows (in tx, after the
// sessions row says which generation is current).
func rollupSession(ctx context.Context, tx *sql.Tx, session string) error {
	rows, err := tx.QueryContext(ctx, `SELECT turn, at, model, message, input, output, cache_read, cache_write, cost
		FROM usage WHERE session = ? AND gen = (SELECT gen FROM sessions WHERE session = ?)`, session, session)
	if err != nil {
		return fmt.Errorf("roll up the usage of %s: %w", session, err)
	}
	c := newUsageCollector()
	for rows.Next() {
		r := response{session: session}
		var message string
		var cost sql.NullFloat64
		if err := rows.Scan(&r.turn, &r.at, &r.model, &message, &r.input, &r.output, &r.cacheRead, &r.cacheWrite, &cost); err != nil {
			_ = rows.Close()
			return fmt.Errorf("roll up the usage of %s: %w", session, err)
		}
		c.add(r, message, cost)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("roll up the usage of %s: %w", session, err)
	}
	sums := map[rollupKey]*response{}
	var order []rollupKey
	for _, r := range c.priced(Prices()) {
		k := rollupKey{bucket: r.at - r.at%rollupBucket, model: r.model, reported: r.reported}
		s := sums[k]
		if s == nil {
			s = &response{}
			sums[k] = s
			order = append(order, k)
		}
		s.input, s.output, s.cacheRead, s.cacheWrite = s.input+r.input, s.output+r.output, s.cacheRead+r.cacheRead, s.cacheWrite+r.cacheWrite
		if r.reported {
			s.cost += r.cost
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM usage_rollup WHERE session = ?", session); err != nil {
		return fmt.Errorf("roll up the usage of %s: %w", session, err)
	}
	for _, k := range order {
		s := sums[k]
		if _, err := tx.ExecContext(ctx, `INSERT INTO usage_rollup(session, bucket, model, reported, input, output,
			cache_read, cache_write, cost) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`, session, k.bucket, k.model, k.reported,
			s.input, s.output, s.cacheRead, s.cacheWrite, s.cost); err != nil {
			return fmt.Errorf("roll up the usage of %s: %w", session, err)
		}
	}
	return nil
}

// rollupAll writes the rollup of every session, once, for an index made before the rollup existed.
func (s *store) rollupAll(ctx context.Context) error {
	done, err := s.metaValue(ctx, "rollup")
	if err != nil || done == rollupVersion {
		return err
	}
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write to the index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var sessions []string
	rows, err := tx.QueryContext(ctx, "SELECT session FROM sessions")
	if err != nil {
		return fmt.Errorf("roll up the usage: %w", err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return fmt.Errorf("roll up the usage: %w", err)
		}
		sessions = append(sessions, id)
	}
	_ = rows.Close()
	for _, id := range sessions {
		if err := rollupSession(ctx, tx, id); err != nil {
			return err
		}
	}
	if err := s.setMeta(ctx, tx, "rollup", rollupVersion); err != nil {
		return err
	}
	return tx.Commit()
}

// readRollup is the rollup's rows as responses for group, priced now where no reported cost covers them.
func (ix *Index) readRollup(ctx context.Context, q UsageQuery, prices PriceTable) ([]*response, error) {
	current, err := ix.currentGenerations(ctx)
	if err != nil {
		return nil, err
	}
	since, until := q.bounds()
	query, args := `SELECT session, bucket, model, reported, input, output, cache_read, cache_write, cost FROM usage_rollup
		WHERE bucket >= ? AND bucket < ?`, []any{since, until}
	if q.Session != "" {
		query, args = query+" AND session = ?", append(args, q.Session)
	}
	rows, err := ix.st.reader.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read the usage from the index: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []*response
	for rows.Next() {
		r := &response{}
		if err := rows.Scan(&r.session, &r.at, &r.model, &r.reported, &r.input, &r.output, &r.cacheRead, &r.cacheWrite, &r.cost); err != nil {
			return nil, fmt.Errorf("read the usage from the index: %w", err)
		}
		s, ok := current[r.session]
		if !ok {
			continue // forgotten since
		}
		r.cwd = s.cwd
		if !r.reported {
			r.price(prices)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// onRollup says whether the rollup answers q exactly: its bounds fall on bucket edges (a day's, an hour's do).
func (q UsageQuery) onRollup() bool {
	for _, t := range []time.Time{q.Since, q.Until} {
		if !t.IsZero() && t.UnixMilli()%rollupBucket != 0 {
			return false
		}
	}
	return true
}
