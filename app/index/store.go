package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// schemaVersion is the layout below; a database of another version is rebuilt (the transcripts are the source).
const schemaVersion = "5"

// schema: files are every transcript file seen (a session's own and its subagents'), with what tells a change;
// sessions hold what the session list shows and where the last mapping job may resume; items are the mapped events
// in conversation order, position seq from 0, of generation gen, stored in runs of consecutive items (runs.go; a
// rowid table, as its rows are large): a full re-mapping writes the next generation in chunks and one last
// transaction makes it the session's, so a reader sees the old items or the new, never half.
// usage is the items that say what was spent (usage.recorded, a turn's reported cost), beside them so a usage
// report reads no event. search is the items' text (searchtext.go), a row per run of items, under a trigram
// tokenizer, so a part of a word, an identifier or a path is found; contentless and without positions (detail=none)
// to stay small: each item of a matching run is checked against its own text when it is read (search.go), and the
// rowid says which run it is (searchrows.go).
const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
	path TEXT PRIMARY KEY,
	session TEXT NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	head BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS files_session ON files(session);
CREATE TABLE IF NOT EXISTS sessions (
	session TEXT PRIMARY KEY,
	file TEXT NOT NULL,
	project TEXT NOT NULL,
	cwd TEXT NOT NULL DEFAULT '',
	title TEXT NOT NULL DEFAULT '',
	first_prompt TEXT NOT NULL DEFAULT '',
	git_branch TEXT NOT NULL DEFAULT '',
	created_at INTEGER,
	modified_at INTEGER NOT NULL DEFAULT 0,
	listed INTEGER NOT NULL DEFAULT 0,
	info_size INTEGER NOT NULL DEFAULT -1,
	info_mtime INTEGER NOT NULL DEFAULT -1,
	resume_offset INTEGER,
	resume_state BLOB,
	resume_items INTEGER,
	mapper TEXT NOT NULL DEFAULT '',
	receipts BLOB,
	gen INTEGER NOT NULL DEFAULT 0,
	items INTEGER NOT NULL DEFAULT 0,
	indexed_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sessions_modified ON sessions(modified_at DESC);
CREATE TABLE IF NOT EXISTS runs (
	session TEXT NOT NULL,
	gen INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	n INTEGER NOT NULL,
	uuids TEXT NOT NULL,
	ends BLOB NOT NULL,
	events BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS runs_seq ON runs(session, gen, seq);
CREATE TABLE IF NOT EXISTS usage (
	session TEXT NOT NULL,
	gen INTEGER NOT NULL,
	seq INTEGER NOT NULL,
	turn TEXT NOT NULL,
	at INTEGER NOT NULL,
	model TEXT NOT NULL,
	message TEXT NOT NULL,
	input INTEGER NOT NULL,
	output INTEGER NOT NULL,
	cache_read INTEGER NOT NULL,
	cache_write INTEGER NOT NULL,
	cost REAL,
	PRIMARY KEY (session, gen, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS search_ids (id INTEGER PRIMARY KEY, session TEXT NOT NULL UNIQUE);
CREATE VIRTUAL TABLE IF NOT EXISTS search USING fts5(text, content='', contentless_delete=1, tokenize='trigram',
	detail=none);
`

// store is the database: one connection that writes (the indexer's goroutine owns it) and a pool that reads. In WAL
// mode readers see the last committed state and never wait for the writer.
type store struct {
	path   string
	writer *sql.DB
	reader *sql.DB
}

func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	// Writers take the lock when they begin, so a second one waits its turn (busy_timeout) instead of failing.
	q.Add("_txlock", "immediate")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	}
	return "file:" + path + "?" + q.Encode()
}

// openStore opens (creating) the database at path and checks that it is of this schema, and whole when whole
// is set (quick_check reads every page: the console's long-lived host pays it, a headless command reads the header
// and schema only and meets any other damage as a failed read); errCorrupt wraps what says it is not.
func openStore(ctx context.Context, path string, whole bool) (*store, error) {
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("open the index %s: %w", path, err)
	}
	w.SetMaxOpenConns(2)
	s := &store{path: path, writer: w}
	if err := s.prepare(ctx, whole); err != nil {
		_ = w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("open the index %s for reading: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	s.reader = r
	return s, nil
}

// errCorrupt says the file is not a usable index (damaged, not SQLite, or another schema).
var errCorrupt = errors.New("the index is damaged or of another version")

func (s *store) prepare(ctx context.Context, whole bool) error {
	if err := s.check(ctx, whole); err != nil {
		return err
	}
	if _, err := s.writer.ExecContext(ctx, schema+rollupSchema); err != nil {
		return fmt.Errorf("%w: create the tables: %w", errCorrupt, err)
	}
	version, err := s.metaValue(ctx, "schema")
	if err != nil {
		return fmt.Errorf("%w: %w", errCorrupt, err)
	}
	switch version {
	case schemaVersion:
		return s.rollupAll(ctx)
	case "":
		if err := s.setMeta(ctx, s.writer, "schema", schemaVersion); err != nil {
			return err
		}
		return s.setMeta(ctx, s.writer, "rollup", rollupVersion)
	default:
		return fmt.Errorf("%w: schema %q, this Baton's is %q", errCorrupt, version, schemaVersion)
	}
}

// check reads the header and schema, and with whole every page.
func (s *store) check(ctx context.Context, whole bool) error {
	if !whole {
		var n int
		if err := s.writer.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
			return fmt.Errorf("%w: %w", errCorrupt, err)
		}
		return nil
	}
	var check string
	if err := s.writer.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&check); err != nil {
		return fmt.Errorf("%w: %w", errCorrupt, err)
	}
	if check != "ok" {
		return fmt.Errorf("%w: quick_check says %s", errCorrupt, check)
	}
	return nil
}

func (s *store) close() error {
	var errs []error
	if s.reader != nil {
		errs = append(errs, s.reader.Close())
	}
	errs = append(errs, s.writer.Close())
	return errors.Join(errs...)
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func (s *store) metaValue(ctx context.Context, key string) (string, error) {
	var v string
	err := s.writer.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s from the index: %w", key, err)
	}
	return v, nil
}

func (s *store) setMeta(ctx context.Context, db execer, key, value string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value)
	if err != nil {
		return fmt.Errorf("write %s to the index: %w", key, err)
	}
	return nil
}
