package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
)

// indexSession brings one session's items up to date with its files (the writer's goroutine only).
func (ix *Index) indexSession(ctx context.Context, session string) error {
	row, err := loadSession(ctx, ix.st.writer, session)
	if err != nil {
		return err
	}
	project := ""
	if row != nil {
		project = row.project
	}
	files := scanSession(ix.opts.ProjectsDir, session, project)
	if files == nil {
		return ix.forget(ctx, session)
	}
	p, err := planFor(ctx, ix.st.writer, files, ix.mapperVersion(), ix.receiptDigest(session))
	if err != nil || p.kind == planFresh {
		ix.doneWork(files)
		return err
	}
	ix.queuedWork(files)
	defer ix.doneWork(files)
	return ix.runJob(ctx, files, p)
}

// job is one transcript job's writing: into the session's current generation from base (a resume), or into the
// next generation, chunk by chunk, made current when done (a full mapping).
type job struct {
	ix       *Index
	files    *sessionFiles
	id       string
	gen      int64
	base     int64 // the first position this job writes
	full     bool
	written  int64
	receipts []byte // the digest of the receipt ends this job maps with
	tx       *sql.Tx
	search   int64     // the session's search id
	run      *run      // the items written but not yet stored, from position run.seq
	text     searchRow // the search row of run's items
	usage    usageRows // the usage rows of run's items
	packed   []byte
}

func (ix *Index) runJob(ctx context.Context, files *sessionFiles, p plan) error {
	ends, digest := ix.receiptsOf(files.session)
	req := protocol.TranscriptOpenRequest{Session: files.session, File: files.main.path, Receipts: ends}
	if p.kind == planResume {
		req.Resume = &protocol.TranscriptResumeAt{Offset: int(p.resume.offset), State: p.resume.state}
	}
	rep, err := ix.opts.Mapper.Open(ctx, req)
	if err != nil {
		return ix.noteUnmapped(fmt.Errorf("open a transcript job for %s: %w", files.session, err))
	}
	defer func() {
		// Closed even when the index is closing (its context ended), but never waited on for long.
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := ix.opts.Mapper.Close(closeCtx, rep.Job); err != nil {
			ix.log.Debug().Err(err).Msg("index: close a transcript job")
		}
	}()
	if ix.noteMapper(ctx, rep.Mapper) && p.kind == planResume {
		// The state was another mapper's: map the whole transcript with this one.
		return ix.runJob(ctx, files, plan{kind: planFull, gen: p.gen, known: p.known})
	}
	j := &job{ix: ix, files: files, id: rep.Job, gen: p.gen, full: p.kind != planResume || rep.Restarted, receipts: digest}
	if j.full {
		j.gen = p.gen + 1
	} else {
		j.base = p.resume.items
	}
	if err := j.begin(ctx); err != nil {
		return err
	}
	defer func() { _ = j.tx.Rollback() }()
	resume, err := j.pull(ctx)
	if err != nil {
		return err
	}
	return j.finish(ctx, rep.Mapper, resume)
}

// probeMapper learns the mapper's version (a job opened and closed on one transcript; the wire has no request of
// its own for it), so an index mapped by another version is rebuilt.
func (ix *Index) probeMapper(ctx context.Context, files *sessionFiles) error {
	rep, err := ix.opts.Mapper.Open(ctx, protocol.TranscriptOpenRequest{Session: files.session, File: files.main.path})
	if err != nil {
		return ix.noteUnmapped(fmt.Errorf("open a transcript job for %s: %w", files.session, err))
	}
	_ = ix.opts.Mapper.Close(ctx, rep.Job)
	ix.noteMapper(ctx, rep.Mapper)
	ix.mu.Lock()
	ix.probed = true
	ix.mu.Unlock()
	return ix.st.setMeta(ctx, ix.st.writer, "baton", ix.opts.Version)
}

// noteUnmapped remembers a sidecar that has no transcript jobs (it answers bad_request to them), so reads stop
// asking it for the rest of this run; err is returned as it is.
func (ix *Index) noteUnmapped(err error) error {
	var body *protocol.ErrorBody
	if errors.As(err, &body) && body.Code == activity.ErrorCodeBadRequest {
		ix.mu.Lock()
		ix.unmapped = err
		ix.mu.Unlock()
	}
	return err
}

// noteMapper records the mapper version a job reported; a new one (after the first) queues every other session
// to be mapped again, in the background (where the index is built). True when the version changed.
func (ix *Index) noteMapper(ctx context.Context, version string) bool {
	ix.mu.Lock()
	old := ix.mapper
	ix.mapper = version
	ix.mu.Unlock()
	if old == version {
		return false
	}
	if err := ix.st.setMeta(ctx, ix.st.writer, "mapper", version); err != nil {
		ix.log.Warn().Err(err).Msg("index: record the mapper version")
	}
	ix.mu.Lock()
	building := ix.building
	ix.mu.Unlock()
	if old != "" && building { // a headless command maps again only what it reads
		ix.log.Info().Str("from", old).Str("to", version).Msg("index: the mapper changed; every session is mapped again")
		ix.Build()
	}
	return true
}

func (j *job) begin(ctx context.Context) error {
	tx, err := j.ix.st.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write to the index: %w", err)
	}
	j.tx = tx
	// Leftovers of an abandoned job in the generation this one writes.
	for _, table := range []string{"runs", "usage"} {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE session = ? AND gen = ? AND seq >= ?", j.files.session, j.gen, j.base); err != nil {
			return fmt.Errorf("clear the items of %s: %w", j.files.session, err)
		}
	}
	if j.run, err = reopenRun(ctx, tx, j.files.session, j.gen, j.base); err != nil {
		return err
	}
	if j.search, err = searchID(ctx, tx, j.files.session); err != nil {
		return err
	}
	// The run taken up again has its search row written again, with its new items' text.
	j.text.addRun(j.run)
	return dropSearchFrom(ctx, tx, j.search, j.gen, j.run.seq)
}

// pull reads the job's pages into the index until done, committing a full mapping every ChunkItems items. The
// next page is asked for while this one is written, so the sidecar maps while SQLite writes.
func (j *job) pull(ctx context.Context) (*protocol.TranscriptResume, error) {
	ins, err := j.prepare(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { ins.close() }()
	pages, stop := j.prefetch(ctx)
	defer stop()
	// A row's insert takes microseconds: it runs without the job's cancellation, which the driver would watch with a
	// goroutine and a progress handler per statement (a tenth of the host's build, PERFORMANCE.md); the job
	// stops between pages instead.
	rowCtx := context.WithoutCancel(ctx)
	sinceCommit := 0
	for pg := range pages {
		if pg.err == nil {
			pg.err = ctx.Err()
		}
		if pg.err != nil {
			return nil, fmt.Errorf("read the transcript of %s: %w", j.files.session, pg.err)
		}
		for _, it := range pg.rep.Items {
			if err := j.write(rowCtx, ins, it); err != nil {
				return nil, err
			}
		}
		if pg.rep.Done {
			return pg.rep.Resume, j.store(rowCtx, ins)
		}
		sinceCommit += len(pg.rep.Items)
		if j.full && sinceCommit >= j.ix.opts.ChunkItems {
			if ins, err = j.commitChunk(ctx, ins); err != nil {
				return nil, err
			}
			sinceCommit = 0
		}
	}
	return nil, fmt.Errorf("read the transcript of %s: %w", j.files.session, ctx.Err())
}

// inserts are a transaction's prepared inserts: runs of items, their search text and usage (a batch of rows, and
// one).
type inserts struct{ item, search, usage, usageBatch *sql.Stmt }

func (i inserts) close() {
	for _, st := range []*sql.Stmt{i.item, i.search, i.usage, i.usageBatch} {
		if st != nil {
			_ = st.Close()
		}
	}
}

func (j *job) prepare(ctx context.Context) (inserts, error) {
	item, err := j.tx.PrepareContext(ctx, insertRun)
	if err != nil {
		return inserts{}, fmt.Errorf("write to the index: %w", err)
	}
	ins := inserts{item: item}
	if ins.search, err = j.tx.PrepareContext(ctx, insertSearch); err == nil {
		ins.usage, err = j.tx.PrepareContext(ctx, insertUsage)
	}
	if err == nil {
		ins.usageBatch, err = j.tx.PrepareContext(ctx, insertUsageBatch)
	}
	if err != nil {
		ins.close()
		return inserts{}, fmt.Errorf("write to the index: %w", err)
	}
	return ins, nil
}

// write adds one item at the next position to the job's run (stored, with its search row and usage rows, when
// full), and its text and usage, when it has any, to the run's.
func (j *job) write(ctx context.Context, ins inserts, it protocol.TranscriptItem) error {
	seq := j.base + j.written
	if fields, ok := fieldsOf(it.Event); ok {
		if doc, ok := searchDocOf(fields); ok {
			j.text.add(doc.text)
		}
		if u, ok := usageOf(fields); ok {
			j.usage.add(seq, u)
		}
	}
	j.run.add(it.UUID, it.Event)
	j.written++
	if j.run.full() {
		return j.store(ctx, ins)
	}
	return nil
}

// store writes the job's run, its search row and its usage rows, when they have items, text and usage, and starts
// the next run at the next position.
func (j *job) store(ctx context.Context, ins inserts) error {
	r := j.run
	if r.n() > 0 {
		j.packed = s2.Encode(j.packed[:cap(j.packed)], r.events)
		if _, err := ins.item.ExecContext(ctx, j.files.session, j.gen, r.seq, r.n(), string(r.uuids), r.ends, j.packed); err != nil {
			return fmt.Errorf("write the items of %s: %w", j.files.session, err)
		}
	}
	if len(j.text.text) > 0 {
		if _, err := ins.search.ExecContext(ctx, searchRowid(j.search, j.gen, r.seq), string(j.text.text)); err != nil {
			return fmt.Errorf("write the search text of %s: %w", j.files.session, err)
		}
	}
	if err := j.usage.write(ctx, ins.usageBatch, ins.usage, j.files.session, j.gen); err != nil {
		return err
	}
	// The next run reuses this one's buffers: the driver copied what it bound.
	j.run = &run{seq: j.base + j.written, events: r.events[:0], ends: r.ends[:0], uuids: r.uuids[:0]}
	j.text.reset()
	return nil
}

// prefetchPages is how many pages wait for the writer: the sidecar's next request is already there while the
// writer is held up by a chunk's commit, so the mapping never waits for it (one page: the bench's in-process build
// with the real sidecar 4.44 → 3.58 s median of 7 alternated pairs; each page is ~1 MB).
const prefetchPages = 3

type nextPage struct {
	rep protocol.TranscriptNextReply
	err error
}

// prefetch asks for the job's pages up to prefetchPages ahead of the writer, until the last page or an error; stop
// ends it and waits, so no request of this job is still under way when the job is closed.
func (j *job) prefetch(ctx context.Context) (<-chan nextPage, func()) {
	ctx, cancel := context.WithCancel(ctx)
	pages := make(chan nextPage, prefetchPages)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(pages)
		for {
			rep, err := j.ix.opts.Mapper.Next(ctx, protocol.TranscriptNextRequest{Job: j.id, MaxEvents: j.ix.opts.PageEvents})
			select {
			case pages <- nextPage{rep, err}:
			case <-ctx.Done():
				return
			}
			if err != nil || rep.Done {
				return
			}
		}
	}()
	return pages, func() {
		cancel()
		<-done
	}
}

// commitChunk commits what a full mapping wrote so far (readers still see the old generation) and goes on in a
// new transaction, so other writers are not held up for a whole large transcript.
func (j *job) commitChunk(ctx context.Context, ins inserts) (inserts, error) {
	ins.close() // the job's run is not full yet: it goes on in the next transaction
	if err := j.tx.Commit(); err != nil {
		return inserts{}, fmt.Errorf("write to the index: %w", err)
	}
	tx, err := j.ix.st.writer.BeginTx(ctx, nil)
	if err != nil {
		return inserts{}, fmt.Errorf("write to the index: %w", err)
	}
	j.tx = tx
	return j.prepare(ctx)
}

// finish makes the job's items the session's, with its files as they were read and the resume point, in one
// transaction.
func (j *job) finish(ctx context.Context, mapper string, resume *protocol.TranscriptResume) error {
	s, tx := j.files.session, j.tx
	total := j.base + j.written
	var off, items any
	var state []byte
	if resume != nil {
		off, state, items = int64(resume.Offset), []byte(resume.State), j.base+int64(resume.Items)
	}
	stmts := []struct {
		q    string
		args []any
	}{
		{"DELETE FROM runs WHERE session = ? AND (gen != ? OR seq >= ?)", []any{s, j.gen, total}},
		{"DELETE FROM usage WHERE session = ? AND (gen != ? OR seq >= ?)", []any{s, j.gen, total}},
		{`INSERT INTO sessions(session, file, project, gen, items, mapper, receipts, resume_offset, resume_state,
			resume_items, indexed_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(session) DO UPDATE SET
			file = excluded.file, project = excluded.project, gen = excluded.gen, items = excluded.items,
			mapper = excluded.mapper, receipts = excluded.receipts, resume_offset = excluded.resume_offset,
			resume_state = excluded.resume_state, resume_items = excluded.resume_items, indexed_at = excluded.indexed_at`,
			[]any{s, j.files.main.path, j.files.project, j.gen, total, mapper, j.receipts, off, state, items, time.Now().UnixMilli()}},
		{"DELETE FROM files WHERE session = ?", []any{s}},
	}
	for _, st := range stmts {
		if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
			return fmt.Errorf("record the mapping of %s: %w", s, err)
		}
	}
	if err := dropSearchBut(ctx, tx, j.search, j.gen, total); err != nil {
		return fmt.Errorf("record the mapping of %s: %w", s, err)
	}
	if err := rollupSession(ctx, tx, s); err != nil {
		return err
	}
	// Another Baton process may have mapped this session into the same generation meanwhile: then the items are
	// not all this job's, and the next read maps it again.
	var n int64
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(SUM(n), 0) FROM runs WHERE session = ? AND gen = ?", s, j.gen).Scan(&n); err != nil {
		return fmt.Errorf("record the mapping of %s: %w", s, err)
	}
	if n != total {
		return fmt.Errorf("the items of %s changed while they were written (%d, not %d); not recorded", s, n, total)
	}
	for _, f := range j.files.all() {
		head, err := headHash(f.path, f.size)
		if err != nil {
			return fmt.Errorf("read %s: %w", f.path, err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO files(path, session, size, mtime, head) VALUES(?, ?, ?, ?, ?)",
			f.path, s, f.size, f.mtime, head); err != nil {
			return fmt.Errorf("record the files of %s: %w", s, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record the mapping of %s: %w", s, err)
	}
	return nil
}

// forget drops a session whose transcript is gone.
func (ix *Index) forget(ctx context.Context, session string) error {
	tx, err := ix.st.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write to the index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, table := range []string{"runs", "usage", "usage_rollup", "files", "sessions"} {
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE session = ?", session); err != nil {
			return fmt.Errorf("forget session %s: %w", session, err)
		}
	}
	if err := forgetSearch(ctx, tx, session); err != nil {
		return fmt.Errorf("forget session %s: %w", session, err)
	}
	return tx.Commit()
}
