package console

import (
	"context"
	"sync"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/changeswatch"
	"github.com/baton-console/baton/app/session"
)

// changesFeed keeps every open session's change counts current for the console: it watches each one's folder
// (changeswatch: Claude's edits and anyone else's) and pushes the counts (HostState.SetChanges) after each settled
// change, so the Changes panel and the sidebar follow without asking.
type changesFeed struct {
	a   *API
	sub *session.Subscription
	mu  sync.Mutex
	on  map[string]*watchedSession
	wg  sync.WaitGroup
}

// watchedSession is one open session's watch.
type watchedSession struct {
	w    *changeswatch.Watcher // nil until its folder is watched (or when it cannot be)
	stop chan struct{}
}

func newChangesFeed(a *API) *changesFeed {
	f := &changesFeed{a: a, on: map[string]*watchedSession{}}
	f.sub = a.opts.Sessions.Subscribe(func(ev activity.Event) bool {
		return ev.Session != "" && (ev.Kind == activity.ToolCompleted || ev.Kind == activity.ToolFailed ||
			ev.Kind == activity.TurnCompleted)
	})
	f.wg.Add(1)
	go f.run()
	return f
}

func (f *changesFeed) run() {
	defer f.wg.Done()
	for ev := range f.sub.C() {
		// A tool finished: fsnotify has seen its edits, but a checkout too big to watch whole relies on this too.
		f.mu.Lock()
		if ws := f.on[ev.Session]; ws != nil && ws.w != nil {
			ws.w.Poke()
		}
		f.mu.Unlock()
	}
}

// watch starts watching a session's folder until the session ends (one started again keeps its watch).
func (f *changesFeed) watch(s *session.Session) {
	id := s.ID()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.on[id] != nil {
		return
	}
	ws := &watchedSession{stop: make(chan struct{})}
	f.on[id] = ws
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		f.follow(id, s, ws)
	}()
}

// follow pushes the session's counts now and after each change, until the session ends or the feed closes.
func (f *changesFeed) follow(id string, s *session.Session, ws *watchedSession) {
	// Every settled change is pushed, the same counts too: an edit that swaps one line for another changes the
	// diff the panel shows, not the counts.
	push := func() {
		if u, ok := f.counts(id); ok {
			f.a.opts.Host.SetChanges(u)
		}
	}
	// The watch first, then the counts: a change made between the two is then counted or reported, never lost.
	t, _, err := f.a.sessionTarget(context.Background(), id, "")
	if err == nil {
		w, werr := changeswatch.Watch(context.Background(), changeswatch.Options{Dir: t.Dir, OnChange: push,
			Logger: f.a.opts.Logger})
		if werr != nil {
			f.a.opts.Logger.Debug().Err(werr).Str("session", id).Msg("the session's folder cannot be watched for changes")
		} else {
			f.mu.Lock()
			ws.w = w
			f.mu.Unlock()
			defer w.Close()
		}
	}
	push()
	select {
	case <-s.Done():
	case <-ws.stop:
	}
	f.mu.Lock()
	delete(f.on, id)
	f.mu.Unlock()
	f.a.opts.Host.ForgetChanges(id)
}

// counts are the session's change counts now (false: none to tell, e.g. its folder is no git checkout).
func (f *changesFeed) counts(id string) (ChangesUpdate, bool) {
	res, err := f.a.SessionChanges(ChangesParams{Session: id})
	if err != nil {
		return ChangesUpdate{}, false
	}
	u := ChangesUpdate{Session: id, Worktree: res.Worktree != nil, Missing: res.Missing, Files: len(res.Files)}
	for _, c := range res.Files {
		u.Added += c.Added
		u.Deleted += c.Deleted
	}
	return u, true
}

// close stops every watch and waits for them.
func (f *changesFeed) close() {
	f.sub.Close()
	f.mu.Lock()
	for _, ws := range f.on {
		close(ws.stop)
	}
	f.mu.Unlock()
	f.wg.Wait()
}
