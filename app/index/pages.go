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
		last, found, err := seqOfUUID(ctx, tx, session, gen, at, true)
		if err != nil {
			return Page{}, fmt.Errorf("find message %s in the index: %w", at, err)
		}
		if found {
			total = last + 1
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
	page := Page{Events: make([]json.RawMessage, 0, max(0, end-start)), Total: int(total), Start: int(start)}
	if start >= end {
		return page, nil
	}
	runs, err := runsIn(ctx, tx, session, gen, start, end)
	if err != nil {
		return Page{}, fmt.Errorf("read the history of %s from the index: %w", session, err)
	}
	for i := range runs {
		r := &runs[i]
		for k := max(0, int(start-r.seq)); k < r.n() && r.seq+int64(k) < end; k++ {
			page.Events = append(page.Events, r.event(k))
		}
	}
	return page, nil
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
	var gen int64
	if err := tx.QueryRowContext(ctx, "SELECT gen FROM sessions WHERE session = ?", session).Scan(&gen); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", false, nil
		}
		return "", false, fmt.Errorf("read session %s from the index: %w", session, err)
	}
	first, found, err := seqOfUUID(ctx, tx, session, gen, message, false)
	if err != nil {
		return "", false, fmt.Errorf("find message %s in the index: %w", message, err)
	}
	if !found {
		return "", false, nil
	}
	if parent, err = uuidBefore(ctx, tx, session, gen, first); err != nil {
		return "", false, fmt.Errorf("find the message before %s in the index: %w", message, err)
	}
	return parent, true, nil
}
