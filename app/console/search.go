package console

import (
	"context"
	"errors"
	"time"

	"github.com/baton-console/baton/app/index"
	"github.com/baton-console/baton/app/protocol"
)

// Index is what the console's search and usage calls read: Baton's index of the stored sessions.
type Index interface {
	Search(ctx context.Context, q index.SearchQuery) ([]index.Hit, error)
	Usage(ctx context.Context, q index.UsageQuery) (index.UsageReport, error)
	Progress() index.Progress
}

func noIndex() error {
	return &Error{Code: CodeUnavailable, Message: "search and usage need Baton's session index, which could not be opened here (see the log)"}
}

// SearchSessions finds the messages and tool calls of every stored session (or of one: an in-session find) that
// hold every word of the query, from the index as it is now (indexing says a build is under way).
func (a *API) SearchSessions(p SearchParams) (SearchResult, error) {
	if a.opts.Index == nil {
		return SearchResult{}, noIndex()
	}
	q := index.SearchQuery{Text: p.Query, Cwd: p.Cwd}
	if p.Session != "" {
		if !protocol.ValidSessionID(p.Session) {
			return SearchResult{}, badRequest("%q is not a session id.", p.Session)
		}
		// The history a session shows is its source's (a fork's parent's): its positions are that session's.
		q.Session, _ = a.historySource(p.Session)
	}
	var err error
	if q.Since, err = optionalTime("since", p.Since); err != nil {
		return SearchResult{}, err
	}
	if q.Until, err = optionalTime("until", p.Until); err != nil {
		return SearchResult{}, err
	}
	if p.Limit != nil {
		q.Limit = *p.Limit
	}
	c, cancel := ctx()
	defer cancel()
	hits, err := a.opts.Index.Search(c, q)
	if errors.Is(err, index.ErrQueryTooShort) {
		return SearchResult{}, badRequest("%v", err)
	}
	if err != nil {
		return SearchResult{}, err
	}
	out := SearchResult{Hits: make([]SearchHit, 0, len(hits)), Indexing: a.opts.Index.Progress().Indexing}
	for _, h := range hits {
		out.Hits = append(out.Hits, searchHit(h))
	}
	return out, nil
}

func searchHit(h index.Hit) SearchHit {
	out := SearchHit{Session: h.Session, Title: h.Title, Cwd: h.Cwd, Position: h.Position, UUID: h.UUID, Time: h.Time,
		Role: string(h.Role), Snippet: h.Snippet, Marks: make([]SearchMark, 0, len(h.Marks))}
	if h.Subagent {
		yes := true
		out.Subagent = &yes
	}
	for _, m := range h.Marks {
		out.Marks = append(out.Marks, SearchMark{Start: m[0], End: m[1]})
	}
	return out
}

// UsageReport totals tokens and cost of every stored session by day, week, month, project, model or session.
func (a *API) UsageReport(p UsageParams) (UsageResult, error) {
	if a.opts.Index == nil {
		return UsageResult{}, noIndex()
	}
	q := index.UsageQuery{By: index.UsageBy(p.By), Session: p.Session}
	var err error
	if q.Since, err = optionalTime("since", p.Since); err != nil {
		return UsageResult{}, err
	}
	if q.Until, err = optionalTime("until", p.Until); err != nil {
		return UsageResult{}, err
	}
	c, cancel := ctx()
	defer cancel()
	rep, err := a.opts.Index.Usage(c, q)
	if err != nil {
		return UsageResult{}, err
	}
	out := UsageResult{By: p.By, Rows: make([]UsageRow, 0, len(rep.Rows)), Total: usageRow(rep.Total), PricesDate: rep.PricesDate,
		PricesSDK: rep.PricesSDK}
	for _, r := range rep.Rows {
		out.Rows = append(out.Rows, usageRow(r))
	}
	return out, nil
}

func usageRow(r index.UsageRow) UsageRow {
	return UsageRow{Key: r.Key, InputTokens: int(r.Input), OutputTokens: int(r.Output), CacheReadTokens: int(r.CacheRead),
		CacheWriteTokens: int(r.CacheWrite), CostUsd: r.CostUSD, EstimatedUsd: r.EstimatedUSD, UnpricedTokens: int(r.UnpricedTokens)}
}

func optionalTime(name, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, badRequest("%s %q is not an RFC 3339 time", name, s)
	}
	return t, nil
}
