package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The search table is contentless (the text stays in the runs' events and is read again to check a hit and for its
// snippet), so a row is only its rowid: a session's search id, the parity of the generation, and the position of
// the first item of the run (runs.go) whose items' text the row holds. A row per run, not per item: the build's
// FTS5 inserts, flushes and merges cost a tenth of them (PERFORMANCE.md, "Search rows per run"), and a hit is
// still an item, checked by itself. Two generations of a session are in the index at most (the current and the
// one a full mapping writes), so the parity tells them apart, and a generation's rows from a position on are one
// range of rowids.
const (
	seqBits = 32
	genBit  = int64(1) << seqBits
	maxSeq  = genBit - 1
)

func searchRowid(id, gen, seq int64) int64 { return id<<(seqBits+1) | (gen&1)<<seqBits | seq }

// rowidParts undoes searchRowid.
func rowidParts(rowid int64) (id, parity, seq int64) {
	return rowid >> (seqBits + 1), (rowid >> seqBits) & 1, rowid & maxSeq
}

// searchID is a session's search id, given one the first time it is asked for.
func searchID(ctx context.Context, tx *sql.Tx, session string) (int64, error) {
	if _, err := tx.ExecContext(ctx, "INSERT INTO search_ids(session) VALUES(?) ON CONFLICT(session) DO NOTHING", session); err != nil {
		return 0, fmt.Errorf("give %s a search id: %w", session, err)
	}
	var id int64
	if err := tx.QueryRowContext(ctx, "SELECT id FROM search_ids WHERE session = ?", session).Scan(&id); err != nil {
		return 0, fmt.Errorf("read the search id of %s: %w", session, err)
	}
	return id, nil
}

// dropSearchFrom deletes a generation's search rows from position seq on.
func dropSearchFrom(ctx context.Context, tx *sql.Tx, id, gen, seq int64) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM search WHERE rowid BETWEEN ? AND ?", searchRowid(id, gen, seq), searchRowid(id, gen, maxSeq))
	if err != nil {
		return fmt.Errorf("clear the search rows: %w", err)
	}
	return nil
}

// dropSearchBut keeps only generation gen's search rows before position end.
func dropSearchBut(ctx context.Context, tx *sql.Tx, id, gen, end int64) error {
	if err := dropSearchFrom(ctx, tx, id, gen+1, 0); err != nil {
		return err
	}
	return dropSearchFrom(ctx, tx, id, gen, end)
}

// forgetSearch drops a session's search rows and id.
func forgetSearch(ctx context.Context, tx *sql.Tx, session string) error {
	var id int64
	err := tx.QueryRowContext(ctx, "SELECT id FROM search_ids WHERE session = ?", session).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the search id of %s: %w", session, err)
	}
	if err := dropSearchBut(ctx, tx, id, 0, 0); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM search_ids WHERE id = ?", id); err != nil {
		return fmt.Errorf("forget the search id of %s: %w", session, err)
	}
	return nil
}

const insertSearch = "INSERT INTO search(rowid, text) VALUES(?, ?)"

// searchRow is the text of a run's search row: its items' texts, a line between them (a trigram across the line
// is a candidate the item's check turns down, never a hit). A text the row holds already is left out: the row
// matches the same words without it, and in the bench's build over half the text was an item's repeated in its run
// (PERFORMANCE.md, "Search rows per run").
type searchRow struct {
	text []byte
	has  map[string]bool
}

func (r *searchRow) add(text string) {
	if r.has[text] {
		return
	}
	if r.has == nil {
		r.has = map[string]bool{}
	}
	r.has[text] = true
	if len(r.text) > 0 {
		r.text = append(r.text, '\n')
	}
	r.text = append(r.text, text...)
}

// reset empties the row for the next run, keeping its buffers.
func (r *searchRow) reset() {
	r.text = r.text[:0]
	clear(r.has)
}

// addRun adds a run's items' texts (a resumed job's first run, whose row is written again with the items it
// gains).
func (r *searchRow) addRun(items *run) {
	for i := range items.n() {
		if doc, ok := searchTextOf(items.event(i)); ok {
			r.add(doc.text)
		}
	}
}
