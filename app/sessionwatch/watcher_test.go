package sessionwatch

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/debounce/debouncetest"
	"github.com/fsnotify/fsnotify"
	"github.com/stretchr/testify/require"
)

const (
	quiet   = 10 * time.Millisecond
	maxWait = 100 * time.Millisecond
)

func TestSessionOf(t *testing.T) {
	id, ok := SessionOf("/c/projects/-home-u-demo/6f1c.jsonl")
	require.True(t, ok)
	require.Equal(t, "6f1c", id)
	for _, p := range []string{"/c/projects/k/notes.txt", "/c/projects/k/.jsonl", "/c/projects/k/.x.jsonl.tmp"} {
		_, ok := SessionOf(p)
		require.False(t, ok, p)
	}
}

// changes collects what the watcher reports, for a test to wait on.
type changes struct {
	sessions chan string
	settled  chan struct{}
}

func newChanges() *changes {
	return &changes{sessions: make(chan string, 100), settled: make(chan struct{}, 100)}
}

func (c *changes) next(t *testing.T) string {
	t.Helper()
	select {
	case s := <-c.sessions:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher reported no change")
		return ""
	}
}

// The watcher on a real folder: the projects folder appears after it started, a project folder and a session
// file appear in it, a session this Baton has open is left out, and a session's own subfolder is not watched.
// Timers are the manual stand-ins, so the test decides when a burst settles.
func TestWatcherReportsNewSessionsFromOutside(t *testing.T) {
	config := t.TempDir()
	projects := filepath.Join(config, "projects")
	clock := &debouncetest.Timers{}
	got := newChanges()
	w, err := Start(Options{ProjectsDir: projects, Quiet: quiet, MaxWait: maxWait, After: clock.After,
		Ignore:   func(s string) bool { return s == "open-here" },
		Changed:  func(s string) { got.sessions <- s },
		OnChange: func() { got.settled <- struct{}{} }})
	require.NoError(t, err)
	defer w.Close()

	require.NoError(t, os.Mkdir(projects, 0o700))
	require.Equal(t, "", got.next(t), "the projects folder appearing counts")
	project := filepath.Join(projects, "-home-u-demo")
	require.NoError(t, os.Mkdir(project, 0o700))
	require.Equal(t, "", got.next(t), "a new project folder counts")

	// Written in this order: the open session first, so its absence is known once the other one is reported.
	require.NoError(t, os.WriteFile(filepath.Join(project, "open-here.jsonl"), []byte("{}\n"), 0o600))
	require.NoError(t, os.Mkdir(filepath.Join(project, "open-here"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(project, "open-here", "archived.json"), []byte("{}"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(project, "from-cli.jsonl"), []byte("{}\n"), 0o600))
	for {
		s := got.next(t)
		if s == "" {
			continue // the session's own folder appearing is a project-level event only when it is a project
		}
		require.Equal(t, "from-cli", s, "only the session from outside is reported")
		break
	}

	select {
	case <-got.settled:
		t.Fatal("a burst settled before its timer fired")
	default:
	}
	require.True(t, clock.Fire(quiet))
	select {
	case <-got.settled:
	case <-time.After(10 * time.Second):
		t.Fatal("the settled burst was not reported")
	}
}

// A session that is only written to (a CLI streaming into an existing transcript) is reported on the slow beat:
// each report makes every console list the sessions again.
func TestWritesToAKnownSessionAreReportedOnTheSlowBeat(t *testing.T) {
	const slowQuiet, slowMax = 50 * time.Millisecond, 500 * time.Millisecond
	project := filepath.Join(t.TempDir(), "projects", "-home-u-demo")
	require.NoError(t, os.MkdirAll(project, 0o700))
	transcript := filepath.Join(project, "running.jsonl")
	require.NoError(t, os.WriteFile(transcript, []byte("{}\n"), 0o600))
	clock := &debouncetest.Timers{}
	got := newChanges()
	w, err := Start(Options{ProjectsDir: filepath.Dir(project), Quiet: quiet, MaxWait: maxWait, SlowQuiet: slowQuiet, SlowMaxWait: slowMax,
		After: clock.After, Changed: func(s string) { got.sessions <- s }, OnChange: func() { got.settled <- struct{}{} }})
	require.NoError(t, err)
	defer w.Close()

	f, err := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("{\"more\":1}\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Equal(t, "running", got.next(t))
	require.False(t, clock.Fire(quiet), "a write is not urgent")
	require.False(t, clock.Fire(maxWait))
	require.True(t, clock.Fire(slowQuiet))
	select {
	case <-got.settled:
	case <-time.After(10 * time.Second):
		t.Fatal("the write was not reported")
	}
}

// A new transcript stays urgent while it is being filled (the CLI writes the prompt after creating the file), and
// goes to the slow beat once it is no longer new. The clock is a stand-in the test moves.
func TestANewTranscriptIsUrgentWhileItIsFilled(t *testing.T) {
	const slowQuiet, slowMax = 50 * time.Millisecond, 500 * time.Millisecond
	projects := filepath.Join(t.TempDir(), "projects")
	project := filepath.Join(projects, "-home-u-demo")
	require.NoError(t, os.MkdirAll(project, 0o700))
	clock := &debouncetest.Timers{}
	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tell := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	got := newChanges()
	w, err := Start(Options{ProjectsDir: projects, Quiet: quiet, MaxWait: maxWait, SlowQuiet: slowQuiet, SlowMaxWait: slowMax,
		After: clock.After, Now: tell, Changed: func(s string) { got.sessions <- s }, OnChange: func() { got.settled <- struct{}{} }})
	require.NoError(t, err)
	defer w.Close()

	transcript := filepath.Join(project, "fresh.jsonl")
	f, err := os.Create(transcript)
	require.NoError(t, err)
	require.Equal(t, "fresh", got.next(t))
	require.True(t, clock.Fire(quiet), "a transcript appearing is urgent")
	<-got.settled

	_, err = f.WriteString("{\"prompt\":1}\n")
	require.NoError(t, err)
	require.Equal(t, "fresh", got.next(t))
	require.True(t, clock.Fire(quiet), "its first writes are urgent too")
	<-got.settled

	mu.Lock()
	now = now.Add(newSessionWindow + time.Second)
	mu.Unlock()
	_, err = f.WriteString("{\"reply\":1}\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.Equal(t, "fresh", got.next(t))
	require.False(t, clock.Fire(quiet), "once it is no longer new, writes are not urgent")
	require.True(t, clock.Fire(slowQuiet))
	<-got.settled
}

// A transcript written before its new folder's watch began is never seen created: its first writes are still a
// new session's (urgent), while a transcript there at Start is not.
func TestATranscriptNeverSeenCreatedIsNew(t *testing.T) {
	projects := filepath.Join(t.TempDir(), "projects")
	require.NoError(t, os.MkdirAll(filepath.Join(projects, "k"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(projects, "k", "old.jsonl"), nil, 0o600))
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	w, err := Start(Options{ProjectsDir: projects, After: (&debouncetest.Timers{}).After, Now: func() time.Time { return now }})
	require.NoError(t, err)
	defer w.Close()
	write := fsnotify.Event{Op: fsnotify.Write}
	require.False(t, w.urgent("old", write))
	require.True(t, w.urgent("unseen", write))
	require.True(t, w.urgent("unseen", write), "it stays new for a while")
	now = now.Add(newSessionWindow + time.Second)
	require.False(t, w.urgent("unseen", write))
	require.True(t, w.urgent("old", fsnotify.Event{Op: fsnotify.Remove}), "a transcript going away is urgent")
}

func TestStartNeedsAFolder(t *testing.T) {
	_, err := Start(Options{})
	require.Error(t, err)
}
