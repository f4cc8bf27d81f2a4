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

// Index caches listings per folder.
type Index struct {
	staleAfter time.Duration
	now        func() time.Time

	mu      sync.Mutex
	folders map[string]*folder
}

type folder struct {
	ready    chan struct{} // closed once the first listing is in
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
	root = filepath.Clean(root)
	f := x.folder(root)
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

// folder returns root's cache entry, starting its first listing when there is none.
func (x *Index) folder(root string) *folder {
	x.mu.Lock()
	defer x.mu.Unlock()
	if f, ok := x.folders[root]; ok {
		f.used = x.now()
		return f
	}
	x.evictLocked()
	f := &folder{ready: make(chan struct{}), used: x.now()}
	x.folders[root] = f
	go func() {
		l, err := list(root)
		x.mu.Lock()
		f.listing, f.err, f.listedAt = l, err, x.now()
		x.mu.Unlock()
		close(f.ready)
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
		l, err := list(root)
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

func list(root string) (Listing, error) {
	ctx, cancel := context.WithTimeout(context.Background(), listBudget)
	defer cancel()
	return List(ctx, root)
}
