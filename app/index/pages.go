package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// Page is a page of a session's mapped history: positions Start … Start+len(Events)-1 of Total.
type Page struct {
	Events []json.RawMessage
	Total  int
	Start  int
}

// current makes sure the index has the session's files as they are now: checked against the disk without the
// writer, and brought up to date first (ahead of the background work) only when they changed. False when the
// session has no transcript.
func (ix *Index) current(ctx context.Context, session string) (bool, error) {
	var project string
	err := ix.st.reader.QueryRowContext(ctx, "SELECT project FROM sessions WHERE session = ?", session).Scan(&project)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("read session %s from the index: %w", session, err)
	}
	files := scanSession(ix.opts.ProjectsDir, session, project)
	if files == nil {
		if project != "" {
			ix.Touch(session) // gone: the writer forgets it
		}
		return false, nil
	}
	ix.mu.Lock()
	probed, unmapped := ix.probed, ix.unmapped
	ix.mu.Unlock()
	if unmapped != nil {
		return false, unmapped
	}
	if !probed {
		if err := ix.probeMapper(ctx, files); err != nil {
			return false, err
		}
	}
	p, err := planFor(ctx, ix.st.reader, files, ix.mapperVersion(), ix.receiptDigest(session))
	if err != nil {
		return false, err
	}
	if p.kind == planFresh {
		return true, nil
	}
	return true, ix.Ensure(ctx, session)
}

// History returns a page of a session's history: at most limit events ending just before position before (nil:
// the newest page; limit 0: all), of the conversation up to and including message at ("": all of it; a message
// not in it: all of it).
func (ix *Index) History(ctx context.Context, session, at string, before *int, limit int) (Page, error) {
	if ok, err := ix.current(ctx, session); err != nil || !ok {
		return Page{}, err
	}
	return ix.readPage(ctx, session, at, before, limit)
}

// readPage reads a page as the index has it now, from one snapshot.
func (ix *Index) readPage(ctx context.Context, session, at string, before *int, limit int) (Page, error) {
	tx, err := ix.st.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Page{}, fmt.Errorf("read the index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var gen, total int64
	if err := tx.QueryRowContext(ctx, "SELECT gen, items FROM sessions WHERE session = ?", session).Scan(&gen, &total); err != nil {
		return Page{}, fmt.Errorf("read session %s from the index: %w", session, err)
	}
	if at != "" {
		var last sql.NullInt64
		if err := tx.QueryRowContext(ctx, "SELECT MAX(seq) FROM items WHERE session = ? AND gen = ? AND uuid = ?", session, gen, at).Scan(&last); err != nil {
			return Page{}, fmt.Errorf("find message %s in the index: %w", at, err)
		}
		if last.Valid {
			total = last.Int64 + 1
		}
	}
	end := total
	if before != nil && int64(*before) < end {
		end = int64(*before)
	}
	start := int64(0)
	if limit > 0 {
		start = max(0, end-int64(limit))
	}
	rows, err := tx.QueryContext(ctx, "SELECT event FROM items WHERE session = ? AND gen = ? AND seq >= ? AND seq < ? ORDER BY seq", session, gen, start, end)
	if err != nil {
		return Page{}, fmt.Errorf("read the history of %s from the index: %w", session, err)
	}
	defer func() { _ = rows.Close() }()
	page := Page{Events: make([]json.RawMessage, 0, end-start), Total: int(total), Start: int(start)}
	for rows.Next() {
		var ev []byte
		if err := rows.Scan(&ev); err != nil {
			return Page{}, fmt.Errorf("read the history of %s from the index: %w", session, err)
		}
		page.Events = append(page.Events, ev)
	}
	return page, rows.Err()
}

// MessageParent says which message a user message follows in the session's conversation: the entry before it
// (parent "" when it opens the conversation); found false when it is not in it.
func (ix *Index) MessageParent(ctx context.Context, session, message string) (parent string, found bool, err error) {
	if ok, err := ix.current(ctx, session); err != nil || !ok {
		return "", false, err
	}
	tx, err := ix.st.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return "", false, fmt.Errorf("read the index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var first sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT MIN(seq) FROM items WHERE session = ? AND uuid = ?
		AND gen = (SELECT gen FROM sessions WHERE session = ?)`, session, message, session).Scan(&first)
	if err != nil {
		return "", false, fmt.Errorf("find message %s in the index: %w", message, err)
	}
	if !first.Valid {
		return "", false, nil
	}
	err = tx.QueryRowContext(ctx, `SELECT uuid FROM items WHERE session = ? AND uuid != '' AND seq < ?
		AND gen = (SELECT gen FROM sessions WHERE session = ?) ORDER BY seq DESC LIMIT 1`, session, first.Int64, session).Scan(&parent)
	if errors.Is(err, sql.ErrNoRows) {
		return "", true, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("find the message before %s in the index: %w", message, err)
	}
	return parent, true, nil
}
