package index

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// planKind is what a session's files need.
type planKind int

const (
	planFresh  planKind = iota // the index has them as they are
	planResume                 // the transcript only grew: continue from the stored resume point
	planFull                   // new, rewritten, a subagent changed, or mapped by another mapper version
)

// plan says what a session needs, and where a resume starts.
type plan struct {
	kind   planKind
	resume resumePoint
	gen    int64 // the session's current generation of items
	known  bool  // the session has a row
}

// resumePoint is where a later job may continue: byte offset, the mapper's state there, and how many items
// precede it.
type resumePoint struct {
	offset int64
	state  []byte
	items  int64
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// storedSession is a session's row as far as planning needs it.
type storedSession struct {
	file, project, mapper string
	receipts              []byte // the digest of the receipt ends the last job mapped with
	gen                   int64
	resume                *resumePoint
}

func loadSession(ctx context.Context, db querier, session string) (*storedSession, error) {
	var s storedSession
	var off, items sql.NullInt64
	var state []byte
	err := db.QueryRowContext(ctx, `SELECT file, project, mapper, receipts, gen, resume_offset, resume_state, resume_items
		FROM sessions WHERE session = ?`, session).Scan(&s.file, &s.project, &s.mapper, &s.receipts, &s.gen, &off, &state, &items)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read session %s from the index: %w", session, err)
	}
	if off.Valid && items.Valid {
		s.resume = &resumePoint{offset: off.Int64, state: state, items: items.Int64}
	}
	return &s, nil
}

type storedFile struct {
	size, mtime int64
	head        []byte
}

func loadFiles(ctx context.Context, db querier, session string) (map[string]storedFile, error) {
	rows, err := db.QueryContext(ctx, "SELECT path, size, mtime, head FROM files WHERE session = ?", session)
	if err != nil {
		return nil, fmt.Errorf("read the files of session %s from the index: %w", session, err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]storedFile{}
	for rows.Next() {
		var path string
		var f storedFile
		if err := rows.Scan(&path, &f.size, &f.mtime, &f.head); err != nil {
			return nil, fmt.Errorf("read the files of session %s from the index: %w", session, err)
		}
		out[path] = f
	}
	return out, rows.Err()
}

// planFor compares a session's files on disk with what the index recorded of them; mapper is the version the
// index is built with, receipts the digest of the session's receipt ends now (a turn Baton ran that ended since
// is mapped with its end).
func planFor(ctx context.Context, db querier, files *sessionFiles, mapper string, receipts []byte) (plan, error) {
	row, err := loadSession(ctx, db, files.session)
	if err != nil || row == nil {
		return plan{kind: planFull}, err
	}
	p := plan{kind: planFull, gen: row.gen, known: true}
	if row.mapper == "" || row.mapper != mapper || row.file != files.main.path || !bytes.Equal(row.receipts, receipts) {
		return p, nil
	}
	stored, err := loadFiles(ctx, db, files.session)
	if err != nil {
		return p, err
	}
	if len(stored) != len(files.all()) {
		return p, nil
	}
	for _, sub := range files.subs {
		if f, ok := stored[sub.path]; !ok || f.size != sub.size || f.mtime != sub.mtime {
			return p, nil
		}
	}
	main, ok := stored[files.main.path]
	switch {
	case !ok || files.main.size < main.size:
		return p, nil
	case files.main.size == main.size && files.main.mtime == main.mtime:
		p.kind = planFresh
		return p, nil
	}
	head, err := headHash(files.main.path, main.size)
	if err != nil || !bytes.Equal(head, main.head) || row.resume == nil || files.main.size == main.size {
		return p, nil // rewritten (or touched in place): map it again
	}
	p.kind, p.resume = planResume, *row.resume
	return p, nil
}
