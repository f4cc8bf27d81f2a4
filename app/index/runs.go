package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/klauspost/compress/s2"
)

// Items are stored in runs: up to runEvents consecutive items of a session's generation in one row (fewer once
// their events pass runBytes), so a build writes a row per run instead of one per event (PERFORMANCE.md, "Items
// stored in runs"). A page reads the runs that overlap it; the rare lookups by message uuid scan the runs' uuid
// lists, narrowed by instr().
const (
	runEvents = 64
	runBytes  = 64 << 10
)

// run is one row of runs: the items from position seq, their events one after another, where each ends (a
// little-endian uint32 per item) and each one's uuid followed by a newline (uuids have none). The row holds the
// events compressed (s2, a block): JSON shrinks to a fifth or less, and SQLite's writing of the bytes (pages,
// WAL, checkpoints) was most of what the items cost the build.
type run struct {
	seq    int64
	events []byte
	ends   []byte
	uuids  []byte
}

func (r *run) n() int { return len(r.ends) / 4 }

func (r *run) full() bool { return r.n() >= runEvents || len(r.events) >= runBytes }

func (r *run) add(uuid string, event []byte) {
	r.events = append(r.events, event...)
	r.ends = binary.LittleEndian.AppendUint32(r.ends, uint32(len(r.events)))
	r.uuids = append(append(r.uuids, uuid...), '\n')
}

func (r *run) end(i int) int { return int(binary.LittleEndian.Uint32(r.ends[4*i:])) }

// event is item i's event (a slice of the run's events).
func (r *run) event(i int) []byte {
	start := 0
	if i > 0 {
		start = r.end(i - 1)
	}
	return r.events[start:r.end(i):r.end(i)]
}

// uuidList is the run's uuids in order.
func (r *run) uuidList() []string { return uuidsOf(string(r.uuids)) }

func uuidsOf(uuids string) []string { return strings.Split(strings.TrimSuffix(uuids, "\n"), "\n") }

// truncate keeps the run's first k items.
func (r *run) truncate(k int) {
	if k >= r.n() {
		return
	}
	end := 0
	if k > 0 {
		end = r.end(k - 1)
	}
	kept := r.uuidList()[:k]
	r.events, r.ends, r.uuids = r.events[:end], r.ends[:4*k], r.uuids[:0]
	for _, u := range kept {
		r.uuids = append(append(r.uuids, u...), '\n')
	}
}

const insertRun = "INSERT INTO runs(session, gen, seq, n, uuids, ends, events) VALUES(?, ?, ?, ?, ?, ?, ?)"

// runsIn is the runs of a generation that hold positions [start, end), in order; a run begins at most runEvents-1
// positions before the first it holds, so the read is as long as the page.
func runsIn(ctx context.Context, tx *sql.Tx, session string, gen, start, end int64) ([]run, error) {
	rows, err := tx.QueryContext(ctx, `SELECT seq, uuids, ends, events FROM runs WHERE session = ? AND gen = ? AND seq > ? AND seq < ?
		ORDER BY seq`, session, gen, start-runEvents, end)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	var runs []run
	for rows.Next() {
		var r run
		var packed []byte
		if err := rows.Scan(&r.seq, &r.uuids, &r.ends, &packed); err != nil {
			return nil, err
		}
		if r.events, err = s2.Decode(nil, packed); err != nil {
			return nil, fmt.Errorf("the items from %d: %w", r.seq, err)
		}
		if r.seq+int64(r.n()) > start {
			runs = append(runs, r)
		}
	}
	return runs, rows.Err()
}

// runAt is the run of a generation that holds position seq; false when none does.
func runAt(ctx context.Context, tx *sql.Tx, session string, gen, seq int64) (run, bool, error) {
	runs, err := runsIn(ctx, tx, session, gen, seq, seq+1)
	if err != nil || len(runs) == 0 {
		return run{}, false, err
	}
	return runs[0], true, nil
}

// seqOfUUID is the first (last: the last) position of a generation whose item has the uuid; false when none has.
func seqOfUUID(ctx context.Context, tx *sql.Tx, session string, gen int64, uuid string, last bool) (int64, bool, error) {
	order := "ASC"
	if last {
		order = "DESC"
	}
	rows, err := tx.QueryContext(ctx, "SELECT seq, uuids FROM runs WHERE session = ? AND gen = ? AND instr(uuids, ?) > 0 ORDER BY seq "+order,
		session, gen, uuid+"\n")
	if err != nil {
		return 0, false, err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var seq int64
		var uuids string
		if err := rows.Scan(&seq, &uuids); err != nil {
			return 0, false, err
		}
		list := uuidsOf(uuids)
		for k := range list {
			i := k
			if last {
				i = len(list) - 1 - k
			}
			if list[i] == uuid {
				return seq + int64(i), true, nil
			}
		}
	}
	return 0, false, rows.Err()
}

// uuidBefore is the uuid of the last item before position seq that has one; "" when none has.
func uuidBefore(ctx context.Context, tx *sql.Tx, session string, gen, seq int64) (string, error) {
	rows, err := tx.QueryContext(ctx, "SELECT seq, uuids FROM runs WHERE session = ? AND gen = ? AND seq < ? ORDER BY seq DESC",
		session, gen, seq)
	if err != nil {
		return "", err
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var first int64
		var uuids string
		if err := rows.Scan(&first, &uuids); err != nil {
			return "", err
		}
		list := uuidsOf(uuids)
		for i := min(len(list), int(seq-first)) - 1; i >= 0; i-- {
			if list[i] != "" {
				return list[i], nil
			}
		}
	}
	return "", rows.Err()
}

// reopenRun starts a job that writes from position base (a resume): the run that holds base-1 is taken out of the
// table, cut at base, to be the job's first run, so appends fill it up instead of leaving a short run per resume.
func reopenRun(ctx context.Context, tx *sql.Tx, session string, gen, base int64) (*run, error) {
	if base == 0 {
		return &run{}, nil
	}
	r, ok, err := runAt(ctx, tx, session, gen, base-1)
	if err != nil {
		return nil, fmt.Errorf("read the items of %s: %w", session, err)
	}
	if !ok {
		return &run{seq: base}, nil
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM runs WHERE session = ? AND gen = ? AND seq = ?", session, gen, r.seq); err != nil {
		return nil, fmt.Errorf("clear the items of %s: %w", session, err)
	}
	r.truncate(int(base - r.seq))
	return &r, nil
}
