package auth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/rs/zerolog"
)

// Defaults for the watcher.
const (
	DefaultDebounce     = 200 * time.Millisecond
	DefaultPollInterval = 2 * time.Second
	// safetyInterval re-reads the files even while notifications work: some filesystems (network mounts,
	// some container volumes) accept a watch and never deliver an event.
	safetyInterval = 30 * time.Second
)

// watchTarget is one file whose content decides sign-in.
type watchTarget struct {
	path string
	read fingerprintFunc
}

type watcherConfig struct {
	targets      []watchTarget
	debounce     time.Duration
	pollInterval time.Duration // how often to re-read when notifications are unavailable
	notify       bool          // false: poll only
	// onEvent is called at once, from the watcher's goroutine, with the targets a file event may have changed.
	onEvent func(targets []string)
	// onCheck is called with fresh readings after each burst of events settles and on every tick. The watcher
	// keeps no baseline: what counts as a change is the caller's to decide (see readings.changedFrom).
	onCheck func(now readings)
	log     zerolog.Logger
	// beforeAdd, when set (tests only), runs just before a directory is watched: the moment a directory can
	// vanish between choosing it and watching it.
	beforeAdd func(dir string)
}

// fileWatcher reads its targets when they may have changed. It watches directories, never the files: editors
// and the CLI rewrite files by renaming a new one over them, which ends a watch on the old file. For a target
// whose directory does not exist yet it watches the deepest existing ancestor, and moves down the chain as
// directories appear. Every event is reported at once and schedules a debounced re-read.
type fileWatcher struct {
	cfg     watcherConfig
	fsw     *fsnotify.Watcher // nil when polling
	polling bool
	ticker  *time.Ticker
	done    chan struct{}
}

// startWatcher begins watching before it returns, so an event after it returns is seen.
func startWatcher(ctx context.Context, cfg watcherConfig) *fileWatcher {
	if cfg.debounce <= 0 {
		cfg.debounce = DefaultDebounce
	}
	if cfg.pollInterval <= 0 {
		cfg.pollInterval = DefaultPollInterval
	}
	for i := range cfg.targets {
		cfg.targets[i].path = filepath.Clean(cfg.targets[i].path)
	}
	w := &fileWatcher{cfg: cfg, done: make(chan struct{})}
	if cfg.notify {
		fsw, err := fsnotify.NewWatcher()
		if err != nil {
			cfg.log.Warn().Err(err).Msg("file notifications unavailable; polling the sign-in files instead")
		} else {
			w.fsw = fsw
		}
	}
	w.polling = w.fsw == nil
	w.reconcile()
	w.ticker = time.NewTicker(w.interval())
	go w.run(ctx)
	return w
}

// wait blocks until the watcher has stopped (its context ended).
func (w *fileWatcher) wait() { <-w.done }

func (w *fileWatcher) interval() time.Duration {
	if w.polling {
		return w.cfg.pollInterval
	}
	return max(safetyInterval, w.cfg.pollInterval)
}

func (w *fileWatcher) run(ctx context.Context) {
	defer close(w.done)
	defer w.ticker.Stop()
	var events chan fsnotify.Event
	var errs chan error
	if w.fsw != nil {
		defer w.fsw.Close()
		events, errs = w.fsw.Events, w.fsw.Errors
	}
	var timer *time.Timer
	var fire <-chan time.Time
	var first time.Time
	schedule := func() {
		now := time.Now()
		if fire == nil {
			first, timer = now, time.NewTimer(w.cfg.debounce)
			fire = timer.C
		} else if now.Sub(first) < 4*w.cfg.debounce { // a steady stream of writes still gets checked
			timer.Reset(w.cfg.debounce)
		}
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()

	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			touched := w.touched(ev.Name)
			if len(touched) == 0 {
				continue
			}
			w.cfg.onEvent(touched)
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				_ = w.fsw.Remove(ev.Name) // a renamed-away directory keeps its watch under the old inode
			}
			w.reconcile()
			schedule()
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				w.cfg.log.Warn().Err(err).Msg("file notification error; re-reading the sign-in files")
			}
			w.reconcile()
			schedule()
		case <-fire:
			fire = nil
			w.check()
		case <-w.ticker.C:
			w.reconcile()
			w.check()
		}
	}
}

// touched lists the targets an event on name may have changed: the target itself, or every target below a
// directory on its path (created, removed, renamed).
func (w *fileWatcher) touched(name string) []string {
	name = filepath.Clean(name)
	var out []string
	for _, t := range w.cfg.targets {
		if t.path == name || strings.HasPrefix(t.path, name+string(filepath.Separator)) {
			out = append(out, t.path)
		}
	}
	return out
}

// reconcile watches the deepest existing directory of each target and nothing else. A watch that cannot be
// added (for example the inotify limit) switches the watcher to polling.
func (w *fileWatcher) reconcile() {
	if w.fsw == nil {
		return
	}
	failed := false
	// A directory made between computing the chain and adding the watch sends no event, so recompute after
	// adding until the chain stops moving (it can move only as deep as the targets).
	for range 64 {
		want := w.wantedDirs()
		for _, d := range w.fsw.WatchList() {
			if !slices.Contains(want, d) {
				_ = w.fsw.Remove(d)
			}
		}
		have := w.fsw.WatchList()
		added, vanished := false, false
		for _, d := range want {
			if slices.Contains(have, d) {
				continue
			}
			if w.cfg.beforeAdd != nil {
				w.cfg.beforeAdd(d)
			}
			if err := w.fsw.Add(d); err != nil {
				// A directory removed since it was chosen: its ancestor is watched on the next pass, or nothing
				// would see the directory made again.
				vanished = vanished || errors.Is(err, os.ErrNotExist)
				if !errors.Is(err, os.ErrNotExist) {
					failed = true
					if !w.polling {
						w.cfg.log.Warn().Err(err).Str("dir", d).Msg("cannot watch a sign-in directory; polling instead")
					}
				}
				continue
			}
			added = true
		}
		if !vanished && (!added || slices.Equal(want, w.wantedDirs())) {
			break
		}
	}
	if failed != w.polling {
		w.polling = failed
		if w.ticker != nil {
			w.ticker.Reset(w.interval())
		}
	}
}

func (w *fileWatcher) wantedDirs() []string {
	var want []string
	for _, t := range w.cfg.targets {
		if d := deepestDir(filepath.Dir(t.path)); d != "" && !slices.Contains(want, d) {
			want = append(want, d)
		}
	}
	return want
}

// deepestDir returns dir or its nearest existing ancestor directory ("" if none exists).
func deepestDir(dir string) string {
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// check re-reads every target and hands the readings over.
func (w *fileWatcher) check() { w.cfg.onCheck(readTargets(w.cfg.targets)) }
