package filefind

import (
	"context"
	"path/filepath"
	"sync"
	"time"
)

// Defaults of an Index: a listing older than StaleAfter is listed again in the background (the old one answers
// meanwhile, so a keystroke never waits on git); at most MaxFolders folders are kept.
const (
	StaleAfter = 10 * time.Second
	MaxFolders = 16
	listBudget = 30 * time.Second
)

// PartialAfter is how long at most FindSoon waits for a first listing's first paths before it answers (with
// nothing yet): git's first output comes in 10–80 ms on two busy cores, and issue 28 wants the first results
// within 100 ms of "@".
const PartialAfter = 80 * time.Millisecond

// Index caches listings per folder.
type Index struct {
	staleAfter time.Duration
	now        func() time.Time

	mu      sync.Mutex
	folders map[string]*folder
}

type folder struct {
	ready    chan struct{} // closed once the first listing is in
	building *builder      // the first listing as it is made, answering meanwhile (partial)
	started  time.Time     // when the first listing started
	listing  Listing
	err      error
	listedAt time.Time
	used     time.Time
	relist   chan struct{} // non-nil while a background relisting runs; closed when it ends
}

// NewIndex returns an empty index; staleAfter 0 means StaleAfter.
func NewIndex(staleAfter time.Duration) *Index {
	if staleAfter <= 0 {
		staleAfter = StaleAfter
	}
	return &Index{staleAfter: staleAfter, now: time.Now, folders: make(map[string]*folder)}
}

// Find ranks root's entries against query. The first call for a folder lists it (and waits for that); later
// calls answer from the cached listing, relisting it in the background once it is stale.
func (x *Index) Find(ctx context.Context, root, query string, limit int) ([]Match, Listing, error) {
	return x.FindSoon(ctx, root, query, limit, -1)
}

// FindSoon is Find, except that while the folder's first listing is still being made it answers from the
// entries listed so far (Listing.Partial), waiting at most soon for its first paths: a big repository
// takes git a second or more, and neither the first "@" nor the keystrokes after it should wait for all of it.
// A negative soon waits for the whole listing, as Find does.
func (x *Index) FindSoon(ctx context.Context, root, query string, limit int, soon time.Duration) ([]Match, Listing, error) {
	root = filepath.Clean(root)
	f := x.folder(root)
	if soon >= 0 {
		if partial, ok := f.partial(ctx, soon); ok {
			return rank(partial.Entries, query, limit, false), partial, nil
		}
	}
	select {
	case <-f.ready:
	case <-ctx.Done():
		return nil, Listing{}, ctx.Err()
	}
	x.mu.Lock()
	listing, err := f.listing, f.err
	if err != nil || x.now().Sub(f.listedAt) >= x.staleAfter {
		x.relistLocked(root, f)
	}
	x.mu.Unlock()
	if err != nil {
		return nil, Listing{}, err
	}
	return Rank(listing.Entries, query, limit), listing, nil
}

// partial is what the folder's first listing has so far, as soon as it has anything, or once it has run for soon
// with nothing; ok is false when the whole listing is in by then (or the caller gave up).
func (f *folder) partial(ctx context.Context, soon time.Duration) (Listing, bool) {
	select {
	case <-f.ready: // the usual case: every keystroke after the first listing
		return Listing{}, false
	default:
	}
	b := f.building // set before the folder was shared; the builder outlives the folder's hold on it
	timer := time.NewTimer(soon - time.Since(f.started))
	defer timer.Stop()
	select {
	case <-f.ready:
		return Listing{}, false
	case <-ctx.Done():
		return Listing{}, false
	case <-b.begun:
	case <-timer.C:
	}
	select {
	case <-f.ready: // in meanwhile: the whole listing answers
		return Listing{}, false
	default:
		return b.snapshot(), true
	}
}

// folder returns root's cache entry, starting its first listing when there is none.
func (x *Index) folder(root string) *folder {
	x.mu.Lock()
	defer x.mu.Unlock()
	if f, ok := x.folders[root]; ok {
		f.used = x.now()
		return f
	}
	x.evictLocked()
	f := &folder{ready: make(chan struct{}), building: newBuilder(), started: time.Now(), used: x.now()}
	x.folders[root] = f
	go func() {
		l, err := list(root, f.building)
		x.mu.Lock()
		f.listing, f.err, f.listedAt = l, err, x.now()
		x.mu.Unlock()
		close(f.ready)
		f.building.release() // no partial answers now: the entries it kept twice go
	}()
	return f
}

// relistLocked lists root again in the background unless that already runs.
func (x *Index) relistLocked(root string, f *folder) {
	if f.relist != nil {
		return
	}
	done := make(chan struct{})
	f.relist = done
	go func() {
		l, err := list(root, newBuilder())
		x.mu.Lock()
		if err == nil || f.err != nil {
			f.listing, f.err = l, err
		}
		f.listedAt, f.relist = x.now(), nil
		x.mu.Unlock()
		close(done)
	}()
}

// evictLocked drops the least recently used folder when the index is full.
func (x *Index) evictLocked() {
	if len(x.folders) < MaxFolders {
		return
	}
	var oldest string
	var at time.Time
	for root, f := range x.folders {
		if oldest == "" || f.used.Before(at) {
			oldest, at = root, f.used
		}
	}
	delete(x.folders, oldest)
}

func list(root string, b *builder) (Listing, error) {
	ctx, cancel := context.WithTimeout(context.Background(), listBudget)
	defer cancel()
	return listInto(ctx, root, b)
}
