// Package sessionwatch tells the console when Claude Code's stored sessions change outside this Baton: a session
// started by the CLI or `baton exec`, one that another program is writing, one deleted. It watches Claude Code's
// projects folder (<config dir>/projects/<project key>/<session>.jsonl) with fsnotify and reports each burst of
// changes once, debounced.
package sessionwatch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/baton-console/baton/app/internal/debounce"
	"github.com/fsnotify/fsnotify"
	"github.com/rs/zerolog"
)

// Defaults: a new session (or one removed) settles after DefaultQuiet and is reported at most DefaultMaxWait after
// it happened, so it appears in an open console well within two seconds. A session that is only being written
// (a CLI streaming its reply) is reported on a slower beat: each report costs the console a fresh listing.
const (
	DefaultQuiet       = 150 * time.Millisecond
	DefaultMaxWait     = 500 * time.Millisecond
	DefaultSlowQuiet   = time.Second
	DefaultSlowMaxWait = 5 * time.Second
	// newSessionWindow is how long writes to a new transcript stay urgent: the CLI creates the file before it
	// writes the prompt the listing needs to show it.
	newSessionWindow = 10 * time.Second
	// maxFresh bounds the new transcripts remembered at once.
	maxFresh = 1000
)

// Options configure a watcher.
type Options struct {
	// ProjectsDir is Claude Code's projects folder. It need not exist yet: the watcher waits for it.
	ProjectsDir string
	// Quiet and MaxWait bound the debounce of new and removed sessions; SlowQuiet and SlowMaxWait that of
	// sessions only written to (defaults above).
	Quiet, MaxWait, SlowQuiet, SlowMaxWait time.Duration
	// After schedules the debounce's timers and Now tells the time (nil: the real clock).
	After debounce.AfterFunc
	Now   func() time.Time
	// Ignore says a session's changes are already known (sessions this Baton has open push their own events).
	Ignore func(session string) bool
	// Changed hears each change that counts, at once, once it joined a burst (the session id, "" for a folder).
	Changed func(session string)
	// Written hears every change to a session's transcript at once, undebounced, those Ignore leaves out too
	// (Baton's index keeps every session current).
	Written func(session string)
	// OnChange is called once per settled burst of changes.
	OnChange func()
	Logger   zerolog.Logger
}

// Watcher watches one projects folder until Close.
type Watcher struct {
	opts Options
	fsw  *fsnotify.Watcher
	deb  *debounce.Debouncer // new and removed sessions
	slow *debounce.Debouncer // sessions written to
	done chan struct{}

	mu      sync.Mutex
	watched map[string]bool
	fresh   map[string]time.Time // transcripts new since Start, by session, since when
	known   map[string]bool      // transcripts that are not new (there at Start, or past newSessionWindow)
}

// Start begins watching before it returns: a session written after Start returns is reported.
func Start(opts Options) (*Watcher, error) {
	if opts.ProjectsDir == "" {
		return nil, errors.New("no projects folder to watch")
	}
	if opts.Quiet <= 0 {
		opts.Quiet = DefaultQuiet
	}
	if opts.MaxWait <= 0 {
		opts.MaxWait = DefaultMaxWait
	}
	if opts.SlowQuiet <= 0 {
		opts.SlowQuiet = DefaultSlowQuiet
	}
	if opts.SlowMaxWait <= 0 {
		opts.SlowMaxWait = DefaultSlowMaxWait
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.OnChange == nil {
		opts.OnChange = func() {}
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch Claude Code's sessions for changes: %w", err)
	}
	w := &Watcher{opts: opts, fsw: fsw, done: make(chan struct{}), watched: map[string]bool{}, fresh: map[string]time.Time{}, known: map[string]bool{}}
	// Either report re-reads everything, so a fast one makes a pending slow one unnecessary.
	w.slow = debounce.New(opts.SlowQuiet, opts.SlowMaxWait, opts.After, opts.OnChange)
	w.deb = debounce.New(opts.Quiet, opts.MaxWait, opts.After, func() {
		w.slow.Stop()
		opts.OnChange()
	})
	w.opts.ProjectsDir = filepath.Clean(opts.ProjectsDir)
	w.rewatch()
	go w.loop()
	return w, nil
}

// Close stops watching; a pending burst is dropped.
func (w *Watcher) Close() {
	_ = w.fsw.Close()
	<-w.done
	w.deb.Stop()
	w.slow.Stop()
}

func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			// An overflow loses events: report a change so the console re-reads the list.
			w.opts.Logger.Warn().Err(err).Msg("session watcher")
			w.changed("", true)
		}
	}
}

// rewatch watches the projects folder and each project in it, or, while the folder does not exist, the nearest
// ancestor that does, so its creation is seen.
func (w *Watcher) rewatch() {
	dir := w.opts.ProjectsDir
	for {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return
		}
		dir = parent
	}
	w.add(dir)
	if dir != w.opts.ProjectsDir {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.opts.Logger.Warn().Err(err).Msg("session watcher: read the projects folder")
		return
	}
	for _, e := range entries {
		if e.IsDir() {
			w.add(filepath.Join(dir, e.Name()))
			w.remember(filepath.Join(dir, e.Name()))
		}
	}
}

// remember notes the transcripts already in a project folder: writes to them are not a new session's.
func (w *Watcher) remember(project string) {
	entries, err := os.ReadDir(project)
	if err != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range entries {
		if id, ok := SessionOf(e.Name()); ok && !e.IsDir() {
			if _, isNew := w.fresh[id]; !isNew {
				w.known[id] = true
			}
		}
	}
}

func (w *Watcher) add(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watched[dir] {
		return
	}
	if err := w.fsw.Add(dir); err != nil {
		w.opts.Logger.Warn().Err(err).Str("dir", dir).Msg("session watcher: watch a folder")
		return
	}
	w.watched[dir] = true
}

func (w *Watcher) forget(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.watched, dir)
}

func (w *Watcher) handle(ev fsnotify.Event) {
	name := filepath.Clean(ev.Name)
	projects := w.opts.ProjectsDir
	switch {
	case name != projects && isWithin(projects, name) && filepath.Dir(name) != projects && filepath.Dir(filepath.Dir(name)) != projects:
		return // deeper than a session file (a session's own folder: subagents, file history)
	case name == projects || isWithin(name, projects):
		// The projects folder or one of its ancestors appeared or went away.
		if ev.Has(fsnotify.Create) {
			w.rewatch()
			w.changed("", true)
		}
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.forget(name)
		}
	case filepath.Dir(name) == projects:
		// A project folder: a new one may already hold sessions written before its watch began.
		if ev.Has(fsnotify.Create) {
			if st, err := os.Stat(name); err == nil && st.IsDir() {
				w.add(name)
				w.changed("", true)
			}
		}
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.forget(name)
			w.changed("", true)
		}
	default:
		session, ok := SessionOf(name)
		if !ok || ev.Op == fsnotify.Chmod {
			return
		}
		if w.opts.Written != nil {
			w.opts.Written(session)
		}
		if w.opts.Ignore != nil && w.opts.Ignore(session) {
			return
		}
		w.changed(session, w.urgent(session, ev))
	}
}

// urgent says whether a transcript's event is reported on the fast beat: it appeared or went, or it is new and
// still being filled (its first prompt makes it listable).
func (w *Watcher) urgent(session string, ev fsnotify.Event) bool {
	now := w.opts.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if ev.Has(fsnotify.Create) {
		if len(w.fresh) >= maxFresh {
			for id, at := range w.fresh {
				if now.Sub(at) > newSessionWindow {
					delete(w.fresh, id)
				}
			}
		}
		if len(w.fresh) < maxFresh {
			w.fresh[session] = now
		}
		return true
	}
	if !ev.Has(fsnotify.Write) {
		return true
	}
	at, ok := w.fresh[session]
	switch {
	case !ok && w.known[session]:
		return false
	case !ok:
		// Written, never seen created: its folder was new and the file came before the folder's watch.
		if len(w.fresh) < maxFresh {
			w.fresh[session] = now
		}
		return true
	case now.Sub(at) > newSessionWindow:
		delete(w.fresh, session)
		w.known[session] = true
		return false
	}
	return true
}

// changed notes a change; urgent ones (a session appearing or going) are reported on the fast beat.
func (w *Watcher) changed(session string, urgent bool) {
	if urgent {
		w.deb.Poke()
	} else {
		w.slow.Poke()
	}
	// After the poke: whoever hears this can count on the burst's timers being set.
	if w.opts.Changed != nil {
		w.opts.Changed(session)
	}
}

// SessionOf reads the session id out of a transcript's path (<project>/<id>.jsonl); false for any other file.
func SessionOf(path string) (string, bool) {
	base := filepath.Base(path)
	id, ok := strings.CutSuffix(base, ".jsonl")
	if !ok || id == "" || strings.HasPrefix(id, ".") {
		return "", false
	}
	return id, true
}

// isWithin reports whether path lies strictly inside dir.
func isWithin(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel)
}
