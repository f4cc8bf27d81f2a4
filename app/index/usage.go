package index

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"
)

// UsageBy is how a usage report groups.
type UsageBy string

const (
	UsageByDay     UsageBy = "day"
	UsageByWeek    UsageBy = "week"
	UsageByMonth   UsageBy = "month"
	UsageByProject UsageBy = "project"
	UsageByModel   UsageBy = "model"
	UsageBySession UsageBy = "session"
)

// UsageQuery is which usage to total and how.
type UsageQuery struct {
	By UsageBy
	// Since and Until keep the responses at or after, and before, these times (zero: no bound).
	Since, Until time.Time
	// Session keeps one session's usage ("" for every session's).
	Session string
}

// UsageRow is one group's tokens and cost.
type UsageRow struct {
	Key        string `json:"key"`
	Input      int64  `json:"inputTokens"`
	Output     int64  `json:"outputTokens"`
	CacheRead  int64  `json:"cacheReadTokens"`
	CacheWrite int64  `json:"cacheWriteTokens"`
	// CostUSD is what Claude Code reported for the turns (a turn's result, Baton's receipts) plus estimates for
	// the rest; EstimatedUSD is the part of it that is estimated from the price table.
	CostUSD      float64 `json:"costUsd"`
	EstimatedUSD float64 `json:"estimatedUsd"`
	// UnpricedTokens are tokens of models the price table has no price for: in no cost.
	UnpricedTokens int64 `json:"unpricedTokens,omitempty"`
}

// UsageReport is a usage total by group, newest or largest first.
type UsageReport struct {
	By    UsageBy    `json:"by"`
	Rows  []UsageRow `json:"rows"`
	Total UsageRow   `json:"total"`
	// PricesDate and PricesSDK say which price table the estimates come from.
	PricesDate string `json:"pricesDate"`
	PricesSDK  string `json:"pricesSdk"`
}

// response is one API response's usage, counted once however often it was recorded (the largest count of each).
type response struct {
	session, turn, model, cwd            string
	at                                   int64
	input, output, cacheRead, cacheWrite int64
	cost, estimated                      float64
	// unpriced: no price for the model; reported: a turn's reported cost covers it.
	unpriced, reported bool
}

// price estimates a response's cost from the table, or marks it unpriced.
func (r *response) price(prices PriceTable) {
	if est, ok := prices.estimate(r.model, r.input, r.output, r.cacheRead, r.cacheWrite); ok {
		r.cost, r.estimated = est, est
	} else {
		r.unpriced = true
	}
}

// Usage totals the usage of every indexed session as q says: from the rollup (usagerollup.go), or from every
// usage row when a bound falls inside one of its buckets.
func (ix *Index) Usage(ctx context.Context, q UsageQuery) (UsageReport, error) {
	prices := Prices()
	var responses []*response
	var err error
	if q.onRollup() {
		responses, err = ix.readRollup(ctx, q, prices)
	} else {
		responses, err = ix.readUsage(ctx, q, prices)
	}
	if err != nil {
		return UsageReport{}, err
	}
	return group(responses, q.By, prices), nil
}

type turnKey struct{ session, turn string }

// bounds are q's times as unix ms, unbounded where zero.
func (q UsageQuery) bounds() (since, until int64) {
	since, until = 0, int64(1)<<62
	if !q.Since.IsZero() {
		since = q.Since.UnixMilli()
	}
	if !q.Until.IsZero() {
		until = q.Until.UnixMilli()
	}
	return since, until
}

// usageCollector counts a session's usage rows: each response once, by message, at the largest count of each
// kind; and each turn's reported cost.
type usageCollector struct {
	byMessage map[[2]string]*response
	out       []*response
	reported  map[turnKey]float64
}

func newUsageCollector() *usageCollector {
	return &usageCollector{byMessage: map[[2]string]*response{}, reported: map[turnKey]float64{}}
}

// add counts one usage row: a response's tokens, or (cost valid) its turn's reported cost.
func (c *usageCollector) add(r response, message string, cost sql.NullFloat64) {
	if cost.Valid {
		c.reported[turnKey{r.session, r.turn}] += cost.Float64
		return
	}
	key := [2]string{r.session, message}
	if seen := c.byMessage[key]; seen != nil {
		seen.input, seen.output = max(seen.input, r.input), max(seen.output, r.output)
		seen.cacheRead, seen.cacheWrite = max(seen.cacheRead, r.cacheRead), max(seen.cacheWrite, r.cacheWrite)
		return
	}
	c.byMessage[key] = &r
	c.out = append(c.out, &r)
}

// priced is the responses counted, each priced: estimated from the table, or its share of a reported cost.
func (c *usageCollector) priced(prices PriceTable) []*response {
	for _, r := range c.out {
		r.price(prices)
	}
	applyReported(c.out, c.reported)
	return c.out
}

// readUsage reads the current generation's usage rows (no rollup): the responses, deduplicated by message and
// priced.
func (ix *Index) readUsage(ctx context.Context, q UsageQuery, prices PriceTable) ([]*response, error) {
	current, err := ix.currentGenerations(ctx)
	if err != nil {
		return nil, err
	}
	since, until := q.bounds()
	// No join and no order: the table is read as it lies, the sessions' generations looked up in memory.
	rows, err := ix.st.reader.QueryContext(ctx, `SELECT session, gen, turn, at, model, message, input, output, cache_read,
		cache_write, cost FROM usage WHERE at >= ? AND at < ?`, since, until)
	if err != nil {
		return nil, fmt.Errorf("read the usage from the index: %w", err)
	}
	defer func() { _ = rows.Close() }()
	c := newUsageCollector()
	for rows.Next() {
		var r response
		var message string
		var gen int64
		var cost sql.NullFloat64
		if err := rows.Scan(&r.session, &gen, &r.turn, &r.at, &r.model, &message, &r.input, &r.output, &r.cacheRead, &r.cacheWrite, &cost); err != nil {
			return nil, fmt.Errorf("read the usage from the index: %w", err)
		}
		s, ok := current[r.session]
		if !ok || s.gen != gen || (q.Session != "" && r.session != q.Session) {
			continue // a generation being written, a session not recorded yet, or not the one asked for
		}
		r.cwd = s.cwd
		c.add(r, message, cost)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return c.priced(prices), nil
}

type generation struct {
	gen int64
	cwd string
}

// currentGenerations is every recorded session's current generation and project folder.
func (ix *Index) currentGenerations(ctx context.Context) (map[string]generation, error) {
	rows, err := ix.st.reader.QueryContext(ctx, "SELECT session, gen, cwd FROM sessions")
	if err != nil {
		return nil, fmt.Errorf("read the sessions from the index: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]generation{}
	for rows.Next() {
		var id string
		var g generation
		if err := rows.Scan(&id, &g.gen, &g.cwd); err != nil {
			return nil, fmt.Errorf("read the sessions from the index: %w", err)
		}
		out[id] = g
	}
	return out, rows.Err()
}

// applyReported puts each turn's reported cost on its responses in place of their estimates, shared as the
// estimates share it (evenly when none is priced).
func applyReported(responses []*response, reported map[turnKey]float64) {
	byTurn := map[turnKey][]*response{}
	for _, r := range responses {
		k := turnKey{r.session, r.turn}
		if _, ok := reported[k]; ok {
			byTurn[k] = append(byTurn[k], r)
		}
	}
	for k, rs := range byTurn {
		var est float64
		for _, r := range rs {
			est += r.estimated
		}
		for _, r := range rs {
			share := 1 / float64(len(rs))
			if est > 0 {
				share = r.estimated / est
			}
			r.cost, r.estimated, r.unpriced, r.reported = reported[k]*share, 0, false, true
		}
	}
}

func group(responses []*response, by UsageBy, prices PriceTable) UsageReport {
	rows := map[string]*UsageRow{}
	rep := UsageReport{By: by, Rows: []UsageRow{}, PricesDate: prices.Date, PricesSDK: prices.SDK}
	for _, r := range responses {
		key := usageKey(r, by)
		row := rows[key]
		if row == nil {
			row = &UsageRow{Key: key}
			rows[key] = row
		}
		add(row, r)
		add(&rep.Total, r)
	}
	for _, row := range rows {
		rep.Rows = append(rep.Rows, *row)
	}
	sort.Slice(rep.Rows, func(i, j int) bool { return rowBefore(rep.Rows[i], rep.Rows[j], by) })
	return rep
}

func add(row *UsageRow, r *response) {
	row.Input += r.input
	row.Output += r.output
	row.CacheRead += r.cacheRead
	row.CacheWrite += r.cacheWrite
	row.CostUSD += r.cost
	row.EstimatedUSD += r.estimated
	if r.unpriced {
		row.UnpricedTokens += r.input + r.output + r.cacheRead + r.cacheWrite
	}
}

// usageKey is a response's group: its local day, ISO week or month, its project folder, model or session.
func usageKey(r *response, by UsageBy) string {
	at := time.UnixMilli(r.at).Local()
	switch by {
	case UsageByWeek:
		y, w := at.ISOWeek()
		return fmt.Sprintf("%d-W%02d", y, w)
	case UsageByMonth:
		return at.Format("2006-01")
	case UsageByProject:
		return r.cwd
	case UsageByModel:
		return r.model
	case UsageBySession:
		return r.session
	case UsageByDay:
		return at.Format(time.DateOnly)
	default: // an unknown grouping totals by day, the default
		return at.Format(time.DateOnly)
	}
}

// rowBefore orders periods oldest first and the other groups by cost, then tokens, largest first.
func rowBefore(a, b UsageRow, by UsageBy) bool {
	switch by {
	case UsageByDay, UsageByWeek, UsageByMonth:
		return a.Key < b.Key
	case UsageByProject, UsageByModel, UsageBySession:
	}
	if a.CostUSD != b.CostUSD {
		return a.CostUSD > b.CostUSD
	}
	ta, tb := a.Input+a.Output+a.CacheRead+a.CacheWrite, b.Input+b.Output+b.CacheRead+b.CacheWrite
	if ta != tb {
		return ta > tb
	}
	return a.Key < b.Key
}
