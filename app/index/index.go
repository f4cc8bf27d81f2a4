// Package index is Baton's own index of Claude Code's transcripts: every session under the config dir's projects
// folder, mapped by the sidecar's one mapper (transcript jobs) into events kept in SQLite (index.db in Baton's
// data dir), so a page of history costs the page, not the transcript. One goroutine writes; readers never wait for
// it. The transcripts stay the source of truth: the index is rebuilt when deleted, when damaged, and when the
// mapper's version changes, and kept current from the session watcher and from a check of the files before every
// read.
package index

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/baton-console/baton/app/protocol"
	"github.com/rs/zerolog"
)

// Options configure an Index.
type Options struct {
	// Dir is Baton's data dir (index.db lives there); ProjectsDir is Claude Code's projects folder.
	Dir, ProjectsDir string
	Mapper           Mapper
	// Receipts are how the turns Baton ran in a session ended (nil: none).
	Receipts func(session string) []protocol.ReceiptEnd
	// OnProgress hears every change of the build's progress (nil: nobody).
	OnProgress func(Progress)
	// PageEvents is how many events one transcript_next asks for (default 2000); ChunkItems how many items one
	// transaction of a full mapping writes (default 20000: each commit flushes and merges the search index).
	PageEvents, ChunkItems int
	// Version is this Baton's; an index last opened by another one asks the mapper its version before serving a
	// read, so history mapped by an older mapper is mapped again first.
	Version string
	Logger  zerolog.Logger
	// SkipWholeCheck opens without reading every page (PRAGMA quick_check, which costs the whole file): for a
	// headless command, which must start fast; damage past the header and schema then fails the read it meets.
	SkipWholeCheck bool
}

// Progress is how far indexing is: files and bytes done of those queued since it was last idle.
type Progress struct {
	Indexing   bool  `json:"indexing"`
	FilesDone  int   `json:"filesDone"`
	FilesTotal int   `json:"filesTotal"`
	BytesDone  int64 `json:"bytesDone"`
	BytesTotal int64 `json:"bytesTotal"`
	// Built: a build's scan finished since Open, so idle means every transcript is indexed.
	Built bool `json:"built"`
	// First is the session a reader waits for, mapped ahead of the rest ("" for none).
	First string `json:"first,omitempty"`
	// Rebuild says why every session is mapped again ("" for an ordinary build).
	Rebuild Rebuild `json:"rebuild,omitempty"`
	// Failed is why the last build's scan failed ("" when it did not, or a later one succeeded).
	Failed string `json:"failed,omitempty"`
}

// Rebuild is why the index maps every session again.
type Rebuild string

const (
	// RebuildMapper: the mapper's version changed, so every session is mapped again with the new one.
	RebuildMapper Rebuild = "mapper"
	// RebuildRecovered: the index was unusable and was set aside; a new one is built.
	RebuildRecovered Rebuild = "recovered"
)

// Index is one open index.
type Index struct {
	opts Options
	st   *store
	log  zerolog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	wake   chan struct{}

	mu       sync.Mutex
	scan     bool
	urgent   []string
	normal   []string
	queued   map[string]bool
	waiters  map[string][]chan error
	counted  map[string]int64 // sessions whose files the progress counts already, and their bytes
	progress Progress
	mapper   string       // the mapper version the index is built with ("" until one is known)
	probed   bool         // the mapper's version was asked since Open (or need not be)
	building bool         // Build was called: changes seen are indexed in the background
	unmapped error        // the mapper has no transcript jobs (an older sidecar): reads fail at once
	rebuild  Rebuild      // why the next (or current) run of work maps everything again
	idleTold bool         // the last report said idle
	built    []chan error // WaitBuilt's callers
	// quickScan: a headless search's build, which trusts the mapper version this Baton recorded (probed) instead
	// of starting the mapper to ask it.
	quickScan bool
	// created: this Open made the database (none was there, or it was set aside), so the first scan's sessions
	// all go to the mapper to be listed (sessions.go, scanStartingMapper).
	created bool
}

// Open opens (or creates, or recovers) the index and starts its writer. Nothing is indexed until Build, Touch or
// a read asks for it.
func Open(ctx context.Context, opts Options) (*Index, error) {
	if opts.Mapper == nil {
		return nil, errors.New("the index needs a mapper")
	}
	if opts.PageEvents <= 0 {
		opts.PageEvents = 2000
	}
	if opts.ChunkItems <= 0 {
		opts.ChunkItems = 20000
	}
	_, statErr := os.Stat(filepath.Join(opts.Dir, FileName))
	st, recovered, err := openRecovering(ctx, opts.Dir, !opts.SkipWholeCheck, opts.Logger)
	if err != nil {
		return nil, err
	}
	version, err := st.metaValue(ctx, "mapper")
	if err != nil {
		_ = st.close()
		return nil, err
	}
	openedBy, err := st.metaValue(ctx, "baton")
	if err != nil {
		_ = st.close()
		return nil, err
	}
	ix := &Index{opts: opts, st: st, log: opts.Logger, done: make(chan struct{}), wake: make(chan struct{}, 1),
		queued: map[string]bool{}, waiters: map[string][]chan error{}, counted: map[string]int64{}, mapper: version,
		probed: openedBy == opts.Version, created: recovered || errors.Is(statErr, fs.ErrNotExist)}
	if recovered {
		ix.rebuild = RebuildRecovered
	}
	ix.ctx, ix.cancel = context.WithCancel(context.Background())
	go ix.loop()
	return ix, nil
}

// Close stops the writer (a job under way is abandoned; its transaction rolls back) and closes the database.
func (ix *Index) Close() error {
	ix.cancel()
	<-ix.done
	ix.mu.Lock()
	for id, ws := range ix.waiters {
		for _, w := range ws {
			w <- errors.New("the index closed")
		}
		delete(ix.waiters, id)
	}
	ix.mu.Unlock()
	return ix.st.close()
}

// Build indexes every transcript in the background: what changed since the index last saw it.
func (ix *Index) Build() {
	ix.mu.Lock()
	if ix.building { // only a change of the mapper builds again (noteMapper)
		ix.rebuild = RebuildMapper
		ix.progress.Rebuild = RebuildMapper
	}
	ix.scan, ix.building = true, true
	ix.mu.Unlock()
	ix.poke()
}

// Touch says a session's files changed (the session watcher): it is re-indexed in the background.
func (ix *Index) Touch(session string) {
	if protocol.ValidSessionID(session) {
		ix.enqueue(session, false)
	}
}

// Progress is how far indexing is now.
func (ix *Index) Progress() Progress {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.progress
}

// Ensure brings one session up to date before it is read, ahead of the background work, and waits for it.
func (ix *Index) Ensure(ctx context.Context, session string) error {
	if !protocol.ValidSessionID(session) {
		return fmt.Errorf("%q is not a session id (see baton sessions)", session)
	}
	ch := make(chan error, 1)
	ix.mu.Lock()
	ix.waiters[session] = append(ix.waiters[session], ch)
	ix.mu.Unlock()
	ix.enqueue(session, true)
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-ix.done:
		return errors.New("the index closed")
	}
}

func (ix *Index) poke() {
	select {
	case ix.wake <- struct{}{}:
	default:
	}
}

func (ix *Index) enqueue(session string, urgent bool) {
	ix.mu.Lock()
	switch {
	case urgent:
		ix.urgent = append(ix.urgent, session)
	case !ix.queued[session]:
		ix.normal = append(ix.normal, session)
		ix.queued[session] = true
	}
	ix.mu.Unlock()
	ix.poke()
}

// next is the writer's next piece of work: a session a reader waits for, a scan, then the others in order.
func (ix *Index) next() (session string, scan, ok bool) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	switch {
	case len(ix.urgent) > 0:
		session, ix.urgent = ix.urgent[0], ix.urgent[1:]
		ix.progress.First = session
		return session, false, true
	case ix.scan:
		ix.scan = false
		return "", true, true
	case len(ix.normal) > 0:
		session, ix.normal = ix.normal[0], ix.normal[1:]
		delete(ix.queued, session)
		return session, false, true
	}
	if !ix.idleTold && (ix.progress.Indexing || ix.progress.Built) {
		ix.progress.Indexing = false // the counts stay until the next work begins
		ix.progress.First, ix.progress.Rebuild, ix.rebuild = "", "", ""
		ix.idleTold = true
		ix.report()
		if ix.progress.Built {
			ix.tellBuilt(nil)
		}
	}
	return "", false, false
}

// loop is the one writer.
func (ix *Index) loop() {
	defer close(ix.done)
	for {
		session, scan, ok := ix.next()
		switch {
		case !ok:
			select {
			case <-ix.wake:
			case <-ix.ctx.Done():
				return
			}
		case scan:
			err := ix.scanAll(ix.ctx)
			if err != nil && ix.ctx.Err() == nil {
				ix.log.Warn().Err(err).Msg("index: scan the transcripts")
			}
			ix.scanned(err)
		default:
			err := ix.indexSession(ix.ctx, session)
			if err != nil && ix.ctx.Err() == nil {
				ix.log.Warn().Err(err).Str("session", session).Msg("index: map a transcript")
			}
			ix.finished(session, err)
		}
		if ix.ctx.Err() != nil {
			return
		}
	}
}

// scanned records how a build's scan ended: built (once the work it queued is done), or failed.
func (ix *Index) scanned(err error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	switch {
	case err == nil:
		ix.progress.Built, ix.progress.Failed = true, ""
	case ix.ctx.Err() == nil:
		ix.progress.Failed = err.Error()
		ix.report()
		ix.tellBuilt(fmt.Errorf("index the transcripts: %w", err))
	}
}

func (ix *Index) finished(session string, err error) {
	ix.mu.Lock()
	if ix.progress.First == session {
		ix.progress.First = ""
	}
	ws := ix.waiters[session]
	delete(ix.waiters, session)
	ix.mu.Unlock()
	for _, w := range ws {
		w <- err
	}
}

// queuedWork adds a session's files to the progress's total, once until it is done.
func (ix *Index) queuedWork(f *sessionFiles) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, ok := ix.counted[f.session]; ok {
		return
	}
	if !ix.progress.Indexing {
		old := ix.progress
		ix.progress = Progress{Indexing: true, Built: old.Built, First: old.First, Rebuild: ix.rebuild, Failed: old.Failed}
		ix.idleTold = false
	}
	ix.counted[f.session] = int64(len(f.all()))
	ix.progress.FilesTotal += len(f.all())
	ix.progress.BytesTotal += f.bytes()
	ix.report()
}

// doneWork counts a session's files done (those queuedWork counted).
func (ix *Index) doneWork(f *sessionFiles) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if _, ok := ix.counted[f.session]; !ok {
		return
	}
	delete(ix.counted, f.session)
	ix.progress.FilesDone += len(f.all())
	ix.progress.BytesDone += f.bytes()
	ix.report()
}

// report tells OnProgress; called with mu held, so reports arrive in order.
func (ix *Index) report() {
	if ix.opts.OnProgress != nil {
		ix.opts.OnProgress(ix.progress)
	}
}

// receiptsOf are a session's receipt ends and their digest (nil for none).
func (ix *Index) receiptsOf(session string) ([]protocol.ReceiptEnd, []byte) {
	if ix.opts.Receipts == nil {
		return nil, nil
	}
	ends := ix.opts.Receipts(session)
	if len(ends) == 0 {
		return nil, nil
	}
	data, _ := json.Marshal(ends)
	sum := sha256.Sum256(data)
	return ends, sum[:]
}

func (ix *Index) receiptDigest(session string) []byte {
	_, digest := ix.receiptsOf(session)
	return digest
}

func (ix *Index) mapperVersion() string {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.mapper
}
