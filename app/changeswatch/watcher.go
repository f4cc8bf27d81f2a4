// Package changeswatch tells when a checkout's files change, whoever changes them (Claude, an editor, a command in
// a terminal): fsnotify on the checkout's folders (those git does not ignore, at most MaxDirs of them) and on its
// git folder (a commit, a staged file), each burst of changes reported once, debounced. Where fsnotify cannot cover
// the checkout (too many folders, no watcher left) a slow poll stands in, so a change is never missed for long.
package changeswatch

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/baton-console/baton/app/internal/debounce"
	"github.com/fsnotify/fsnotify"
	"github.com/rs/zerolog"
)

// Defaults: a burst settles after DefaultQuiet and is reported at most DefaultMaxWait after it began, so the
// Changes panel follows Claude within about a second while a busy build (thousands of writes) costs one report a
// second. DefaultMaxDirs bounds the inotify watches one checkout takes; DefaultPoll is the poll's beat beyond it.
const (
	DefaultQuiet   = 250 * time.Millisecond
	DefaultMaxWait = time.Second
	DefaultMaxDirs = 4000
	DefaultPoll    = 5 * time.Second
)

// Options configure one checkout's watcher.
type Options struct {
	Dir string // the checkout's folder (a worktree, or any folder of a repository)
	// Quiet, MaxWait, MaxDirs and Poll: see the defaults.
	Quiet, MaxWait time.Duration
	MaxDirs        int
	Poll           time.Duration
	// OnChange is called once per settled burst, never two at once.
	OnChange func()
	Logger   zerolog.Logger
}

// Watcher watches one checkout until Close.
type Watcher struct {
	o       Options
	fs      *fsnotify.Watcher
	skip    map[string]bool // folders git ignores (absolute), and git folders, never watched
	gitDirs map[string]bool // the checkout's git folder and its logs: their writes are commits and staging
	dirs    int
	partial bool // some folders went unwatched: the poll stands in

	deb  *debounce.Debouncer
	done chan struct{}

	mu     sync.Mutex
	closed bool       // set by Close: no burst starts or settles after it
	fire   sync.Mutex // one OnChange at a time
}

// Watch starts watching o.Dir. The folder must exist.
func Watch(ctx context.Context, o Options) (*Watcher, error) {
	if o.Quiet <= 0 {
		o.Quiet = DefaultQuiet
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultMaxWait
	}
	if o.MaxDirs <= 0 {
		o.MaxDirs = DefaultMaxDirs
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	if fi, err := os.Stat(o.Dir); err != nil || !fi.IsDir() {
		return nil, errors.Join(errors.New("watch the checkout "+o.Dir+": not a folder"), err)
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{o: o, fs: fw, skip: map[string]bool{}, gitDirs: map[string]bool{}, done: make(chan struct{})}
	w.deb = debounce.New(o.Quiet, o.MaxWait, nil, w.settle)
	root := w.root(ctx)
	for _, d := range ignoredDirs(ctx, root) {
		w.skip[d] = true
	}
	if gd := gitDir(ctx, o.Dir); gd != "" {
		for _, d := range []string{gd, filepath.Join(gd, "logs")} {
			if fw.Add(d) == nil {
				w.gitDirs[d] = true
			}
		}
		w.skip[gd] = true
	}
	w.addTree(root)
	go w.run()
	return w, nil
}

// root is the checkout's top folder: a change anywhere in it is one of its changes.
func (w *Watcher) root(ctx context.Context) string {
	out, err := gitOutput(ctx, w.o.Dir, "rev-parse", "--show-toplevel")
	if err != nil || out == "" {
		return w.o.Dir
	}
	return filepath.Clean(out)
}

// addTree watches dir and the folders under it, but not ignored ones, git folders or more than MaxDirs.
func (w *Watcher) addTree(dir string) {
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil //nolint:nilerr // a folder that vanished meanwhile is nothing to watch
		}
		if w.skip[path] || d.Name() == ".git" {
			return filepath.SkipDir
		}
		if w.dirs >= w.o.MaxDirs {
			w.partial = true
			return filepath.SkipAll
		}
		if err := w.fs.Add(path); err != nil {
			w.partial = true // out of inotify watches: the poll covers the rest
			return filepath.SkipAll
		}
		w.dirs++
		return nil
	})
}

func (w *Watcher) run() {
	defer close(w.done)
	var poll <-chan time.Time
	if w.partial {
		t := time.NewTicker(w.o.Poll)
		defer t.Stop()
		poll = t.C
		w.o.Logger.Debug().Str("dir", w.o.Dir).Int("folders", w.dirs).Msg("too many folders to watch them all: polling the rest")
	}
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			w.o.Logger.Debug().Err(err).Str("dir", w.o.Dir).Msg("watching a checkout")
			w.Poke() // an overflow lost events: read the changes again
		case <-poll:
			w.Poke()
		}
	}
}

// event pokes for a change that counts and watches a folder made meanwhile.
func (w *Watcher) event(ev fsnotify.Event) {
	if ev.Op == fsnotify.Chmod {
		return
	}
	if w.gitDirs[filepath.Dir(ev.Name)] && !gitStateFile(filepath.Base(ev.Name)) {
		return // git's own bookkeeping (a lock taken for a read, FETCH_HEAD, …) changes no file of the checkout
	}
	if ev.Op&fsnotify.Create != 0 && !w.gitDirs[filepath.Dir(ev.Name)] {
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() && !w.partial {
			w.addTree(ev.Name)
		}
	}
	w.Poke()
}

// gitStateFile says a file of the git folder whose change changes the checkout's changes: the index (staging,
// a commit), HEAD (a checkout, a commit) and its log (a commit).
func gitStateFile(name string) bool {
	switch name {
	case "index", "HEAD", "ORIG_HEAD", "MERGE_HEAD", "logs":
		return true
	}
	return false
}

// Poke reports a change known otherwise (a session's tool finished), debounced with the rest.
func (w *Watcher) Poke() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.deb.Poke()
	}
}

// settle ends a burst: OnChange runs once, unless the watcher was closed meanwhile.
func (w *Watcher) settle() {
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return
	}
	w.fire.Lock()
	defer w.fire.Unlock()
	if w.o.OnChange != nil {
		w.o.OnChange()
	}
}

// Close stops watching; no OnChange starts after it returns.
func (w *Watcher) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	w.deb.Stop()
	w.mu.Unlock()
	_ = w.fs.Close()
	<-w.done
}

// ignoredDirs are the folders of the checkout git ignores (build output, node_modules): not watched, as their
// changes are none of the checkout's.
func ignoredDirs(ctx context.Context, root string) []string {
	out, err := gitOutput(ctx, root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return nil
	}
	var dirs []string
	for _, p := range strings.Split(out, "\x00") {
		if strings.HasSuffix(p, "/") {
			dirs = append(dirs, filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(p, "/"))))
		}
	}
	return dirs
}

// gitDir is the checkout's own git folder (a worktree's is in the main repository's), "" outside a repository.
func gitDir(ctx context.Context, dir string) string {
	out, err := gitOutput(ctx, dir, "rev-parse", "--path-format=absolute", "--git-dir")
	if err != nil {
		return ""
	}
	return filepath.Clean(out)
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
	out, err := cmd.Output()
	return strings.TrimRight(string(out), "\n"), err
}
