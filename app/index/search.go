package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// SearchQuery is what to look for: every word of Text (case-insensitive, anywhere in a word: "ank" finds
// "banker"), in one message or tool call.
type SearchQuery struct {
	Text string
	// Cwd keeps the sessions of this project folder only ("": all).
	Cwd string
	// Since and Until keep the hits at or after, and before, these times (zero: no bound).
	Since, Until time.Time
	// Session keeps one session's hits only, in the order of its history (an in-session find); "": every
	// session's, newest session first.
	Session string
	// Limit is the most hits returned (0: 50).
	Limit int
}

// Hit is one message or tool call that holds every word of a query.
type Hit struct {
	Session string `json:"session"`
	Title   string `json:"title"`
	Cwd     string `json:"cwd"`
	// Position is the item's place in the session's history (a page's Start counts the same way); UUID is its
	// message's ("" for a tool call's items).
	Position int    `json:"position"`
	UUID     string `json:"uuid,omitempty"`
	Time     string `json:"time"`
	Role     Role   `json:"role"`
	// Subagent: a subagent's message or tool call.
	Subagent bool `json:"subagent,omitempty"`
	// Snippet is the text around the first match, on one line; Marks are the matches in it (byte offsets).
	Snippet string   `json:"snippet"`
	Marks   [][2]int `json:"marks"`
}

// MinSearchRunes is the shortest word the index finds by itself (a trigram); shorter words only narrow a query
// that has a longer one.
const MinSearchRunes = 3

// ErrQueryTooShort says a query has no word of MinSearchRunes characters.
var ErrQueryTooShort = errors.New("search for a word of at least 3 characters")

const defaultSearchLimit = 50

// Search finds the messages and tool calls that hold every word of q, from the index as it is now (a build under
// way has not indexed every session yet; see Progress). The hits come newest session first among those found; a
// common word's first Limit hits are the last sessions given search ids, not necessarily the newest ones.
func (ix *Index) Search(ctx context.Context, q SearchQuery) ([]Hit, error) {
	words := strings.Fields(q.Text)
	match := matchExpr(words)
	if match == "" {
		return nil, ErrQueryTooShort
	}
	if q.Limit <= 0 {
		q.Limit = defaultSearchLimit
	}
	if q.Session != "" {
		return ix.searchSession(ctx, q, words, match)
	}
	tx, err := ix.st.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	hits, err := scanCandidates(ctx, tx, newVerifier(words), q, true, "SELECT rowid FROM search WHERE search MATCH ? ORDER BY rowid DESC", match)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].modified > hits[j].modified })
	return plainHits(hits), nil
}

type rankedHit struct {
	Hit
	modified int64
}

func plainHits(hits []rankedHit) []Hit {
	out := make([]Hit, len(hits))
	for i, h := range hits {
		out[i] = h.Hit
	}
	return out
}

// searchSession is an in-session find: the session brought up to date first (as its history is), then its
// current generation's rows only (one range of rowids), in the order of its history.
func (ix *Index) searchSession(ctx context.Context, q SearchQuery, words []string, match string) ([]Hit, error) {
	if ok, err := ix.current(ctx, q.Session); err != nil || !ok {
		return nil, err
	}
	tx, err := ix.st.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("read the index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var id, gen int64
	err = tx.QueryRowContext(ctx, "SELECT i.id, s.gen FROM search_ids i JOIN sessions s ON s.session = i.session WHERE i.session = ?",
		q.Session).Scan(&id, &gen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil // not indexed yet
	}
	if err != nil {
		return nil, fmt.Errorf("search the index: %w", err)
	}
	hits, err := scanCandidates(ctx, tx, newVerifier(words), q, false, "SELECT rowid FROM search WHERE search MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid",
		match, searchRowid(id, gen, 0), searchRowid(id, gen, maxSeq))
	if err != nil {
		return nil, err
	}
	return plainHits(hits), nil
}

// scanCandidates reads the trigrams' matches in the order the query gives (every session's: newest row first, a
// session's rows by position, the sessions in the order they were given search ids), each a run of items whose
// text holds the trigrams, and checks the run's items one by one (newest first when newestFirst) until the
// limit: a common word stops after the first hits instead of reading every match.
func scanCandidates(ctx context.Context, tx *sql.Tx, v verifier, q SearchQuery, newestFirst bool, query string, args ...any) ([]rankedHit, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("search the index: %w", err)
	}
	defer func() { _ = rows.Close() }()
	sessions := map[int64]*searchSession{}
	var hits []rankedHit
	for len(hits) < q.Limit && rows.Next() {
		var rowid int64
		if err := rows.Scan(&rowid); err != nil {
			return nil, fmt.Errorf("search the index: %w", err)
		}
		id, parity, first := rowidParts(rowid)
		s, ok := sessions[id]
		if !ok {
			if s, err = searchSessionOf(ctx, tx, id, q); err != nil {
				return nil, err
			}
			sessions[id] = s
		}
		if s == nil || parity != s.gen&1 {
			continue // not kept, or a generation being written
		}
		if hits, err = s.hitsIn(ctx, tx, v, q, first, newestFirst, hits); err != nil {
			return nil, err
		}
	}
	return hits, rows.Err()
}

// matchExpr is the FTS5 query: every word's trigrams (every third one and the last: enough to narrow, checked in
// full later), each quoted. "" when no word is long enough.
func matchExpr(words []string) string {
	var terms []string
	for _, w := range words {
		r := []rune(w)
		if len(r) < MinSearchRunes {
			continue
		}
		for i := 0; ; i += MinSearchRunes {
			i = min(i, len(r)-MinSearchRunes)
			terms = append(terms, `"`+strings.ReplaceAll(string(r[i:i+MinSearchRunes]), `"`, `""`)+`"`)
			if i == len(r)-MinSearchRunes {
				break
			}
		}
	}
	return strings.Join(terms, " AND ")
}

// searchSession is a session candidates are in, with its current generation.
type searchSession struct {
	id, title, cwd string
	gen            int64
	modified       int64
}

// searchSessionOf is the session of a search id; nil when the query does not keep it (another project, modified
// before since) or it is not recorded yet (mapped for the first time just now).
func searchSessionOf(ctx context.Context, tx *sql.Tx, sid int64, q SearchQuery) (*searchSession, error) {
	var s searchSession
	err := tx.QueryRowContext(ctx, `SELECT s.session, s.title, s.cwd, s.gen, s.modified_at FROM search_ids i
		JOIN sessions s ON s.session = i.session WHERE i.id = ?`, sid).Scan(&s.id, &s.title, &s.cwd, &s.gen, &s.modified)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("search the index: %w", err)
	}
	if (q.Cwd != "" && s.cwd != q.Cwd) || (!q.Since.IsZero() && s.modified > 0 && s.modified < q.Since.UnixMilli()) {
		return nil, nil
	}
	return &s, nil
}

// hitsIn checks the items of the run from position first (a search row's) and adds those that hold every word
// (and are in the query's time window) to hits, up to the query's limit.
func (s *searchSession) hitsIn(ctx context.Context, tx *sql.Tx, v verifier, q SearchQuery, first int64, newestFirst bool,
	hits []rankedHit) ([]rankedHit, error) {
	r, ok, err := runAt(ctx, tx, s.id, s.gen, first)
	if err != nil {
		return nil, fmt.Errorf("read a hit of %s: %w", s.id, err)
	}
	if !ok {
		return hits, nil
	}
	uuids := r.uuidList()
	for k := range r.n() {
		if len(hits) >= q.Limit {
			break
		}
		i := k
		if newestFirst {
			i = r.n() - 1 - k
		}
		seq := r.seq + int64(i)
		if seq < first {
			continue
		}
		if h, ok := s.hit(v, q, r.event(i), uuids[i], seq); ok {
			hits = append(hits, rankedHit{h, s.modified})
		}
	}
	return hits, nil
}

// hit checks the item at seq holds every word (and is in the query's time window).
func (s *searchSession) hit(v verifier, q SearchQuery, event []byte, uuid string, seq int64) (Hit, bool) {
	doc, ok := searchTextOf(event)
	if !ok || !inWindow(doc.time, q) {
		return Hit{}, false
	}
	at := v.find(doc.text)
	if at == nil {
		return Hit{}, false
	}
	snippet, marks := snippetAt(doc.text, at)
	return Hit{Session: s.id, Title: s.title, Cwd: s.cwd, Position: int(seq), UUID: uuid, Time: doc.time, Role: doc.role,
		Subagent: doc.subagent, Snippet: snippet, Marks: marks}, true
}

func inWindow(at string, q SearchQuery) bool {
	if q.Since.IsZero() && q.Until.IsZero() {
		return true
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return false
	}
	return (q.Since.IsZero() || !t.Before(q.Since)) && (q.Until.IsZero() || t.Before(q.Until))
}

// verifier checks a candidate's text for every word, case-insensitive as the tokenizer folds.
type verifier []*regexp.Regexp

func newVerifier(words []string) verifier {
	v := make(verifier, 0, len(words))
	for _, w := range words {
		v = append(v, regexp.MustCompile("(?i)"+regexp.QuoteMeta(w)))
	}
	return v
}

// find is every match of every word (byte ranges, in order), or nil when a word is missing.
func (v verifier) find(text string) [][2]int {
	var out [][2]int
	for _, re := range v {
		found := re.FindAllStringIndex(text, -1)
		if found == nil {
			return nil
		}
		for _, f := range found {
			out = append(out, [2]int{f[0], f[1]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// Snippet bounds: bytes of text kept before the first match and in all.
const (
	snippetBefore = 60
	snippetLen    = 200
)

// snippetAt is the text around the first match, whitespace runs made one space, with the matches inside it.
func snippetAt(text string, matches [][2]int) (string, [][2]int) {
	from := runeStart(text, max(0, matches[0][0]-snippetBefore))
	to := runeStart(text, min(len(text), from+snippetLen))
	var b strings.Builder
	var marks [][2]int
	next := 0 // the next match to place
	space := false
	for i, r := range text[from:to] {
		at := from + i
		for next < len(matches) && matches[next][0] < at {
			next++ // a match that starts inside a whitespace run or before from
		}
		if next < len(matches) && matches[next][0] == at && matches[next][1] <= to {
			marks = append(marks, [2]int{b.Len(), b.Len() + matches[next][1] - at})
		}
		if isSpace(r) {
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String()), marks
}

func isSpace(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '\r' }

// runeStart moves i back to the start of the rune it is in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
