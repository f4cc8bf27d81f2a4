package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/baton-console/baton/app/index"
)

const searchUsage = "baton search [--project DIR] [--since DATE] [--until DATE] [--limit N] [--json] QUERY"

// Searcher answers a search over every stored session, once every transcript is indexed.
type Searcher interface {
	Search(ctx context.Context, q index.SearchQuery) ([]index.Hit, error)
}

// searchLimit is how many hits a search prints unless --limit says otherwise.
const searchLimit = 100

// RunSearch prints the messages and tool calls of every stored session that hold every word of the query: one
// line each, session id, time, role and the text around the match (newest session first).
func RunSearch(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("search", searchUsage, env.Stderr)
	project := fs.String("project", "", "only sessions of this project folder")
	since := fs.String("since", "", "only hits on or after this day (YYYY-MM-DD) or time (RFC 3339)")
	until := fs.String("until", "", "only hits before this day (YYYY-MM-DD) or time (RFC 3339)")
	limit := fs.Int("limit", searchLimit, "at most this many hits (0: all)")
	asJSON := fs.Bool("json", false, "print a JSON array of hits")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	q, code := searchQuery(env, words, *project, *since, *until, *limit)
	if code != ExitOK {
		return code
	}
	if env.Search == nil {
		fmt.Fprintln(env.Stderr, "baton: search needs Baton's session index, which could not be opened (see the log; baton doctor)")
		return ExitFailure
	}
	stderr := env.Stderr // raw: the index's progress line draws itself in place
	env = env.forTerminal(*asJSON)
	stopIndexLine := watchIndex(env, stderr)
	hits, err := env.Search.Search(ctx, q)
	stopIndexLine()
	if errors.Is(err, index.ErrQueryTooShort) {
		return usageError(env.Stderr, searchUsage, "%v", err)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(hits)
		return ExitOK
	}
	for _, h := range hits {
		fmt.Fprintf(env.Stdout, "%s  %s  %-11s  %s\n", h.Session, hitTime(h.Time), hitRole(h), oneLine(safeText(h.Snippet), 160))
	}
	if len(hits) == 0 {
		fmt.Fprintln(env.Stderr, "No session holds that.")
		return ExitFailure // as grep: nothing found is a failure a script can test
	}
	return ExitOK
}

func searchQuery(env Env, words []string, project, since, until string, limit int) (index.SearchQuery, int) {
	q := index.SearchQuery{Limit: limit}
	if limit == 0 {
		q.Limit = int(^uint(0) >> 1)
	}
	if limit < 0 {
		return q, usageError(env.Stderr, searchUsage, "--limit must be 0 or more")
	}
	if len(words) == 0 {
		return q, usageError(env.Stderr, searchUsage, "say what to search for")
	}
	for _, w := range words {
		if q.Text != "" {
			q.Text += " "
		}
		q.Text += w
	}
	if project != "" {
		abs, err := filepath.Abs(project)
		if fi, statErr := os.Stat(abs); err != nil || statErr != nil || !fi.IsDir() {
			return q, usageError(env.Stderr, searchUsage, "--project %s is not an existing folder", project)
		}
		q.Cwd = abs
	}
	var err error
	if q.Since, err = parseDay(since); err != nil {
		return q, usageError(env.Stderr, searchUsage, "--since %v", err)
	}
	if q.Until, err = parseDay(until); err != nil {
		return q, usageError(env.Stderr, searchUsage, "--until %v", err)
	}
	return q, ExitOK
}

// parseDay reads a day (the local day's start) or an RFC 3339 time; "" is no bound.
func parseDay(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a day (2026-12-01) or a time (2026-12-01T09:30:00Z)", s)
	}
	return t, nil
}

func hitTime(at string) string {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return "                " // a hit without a time keeps the columns
	}
	return t.Local().Format("2006-01-02 15:04")
}

func hitRole(h index.Hit) string {
	if h.Subagent {
		return "agent " + string(h.Role)
	}
	return string(h.Role)
}
