package auth

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watchHarness runs a fileWatcher over settings.json, .credentials.json and .claude.json in cfg, and reports
// the targets whose fingerprint changed since the previous check (a baseline that follows every check).
type watchHarness struct {
	cfg     string
	changes chan []string
	stop    func()
}

func startWatch(t *testing.T, cfg string, notify bool) *watchHarness {
	t.Helper()
	return startWatchHooked(t, cfg, notify, nil)
}

// startWatchHooked is startWatch with a hook run just before each directory is watched.
func startWatchHooked(t *testing.T, cfg string, notify bool, beforeAdd func(dir string)) *watchHarness {
	t.Helper()
	h := &watchHarness{cfg: cfg, changes: make(chan []string, 16)}
	ctx, cancel := context.WithCancel(context.Background())
	targets := []watchTarget{
		{path: filepath.Join(cfg, "settings.json"), read: wholeFile},
		{path: filepath.Join(cfg, ".credentials.json"), read: wholeFile},
		{path: filepath.Join(cfg, ".claude.json"), read: globalStateAuth},
	}
	last := readTargets(targets) // only the watcher's goroutine touches it after this
	w := startWatcher(ctx, watcherConfig{
		targets:  targets,
		debounce: 30 * time.Millisecond, pollInterval: 50 * time.Millisecond, notify: notify,
		onEvent: func([]string) {},
		onCheck: func(now readings) {
			if c := last.changedFrom(now); len(c) > 0 {
				last = last.updated(now)
				h.changes <- c
			}
		},
		log: zerolog.Nop(), beforeAdd: beforeAdd,
	})
	h.stop = func() { cancel(); w.wait() }
	t.Cleanup(h.stop)
	return h
}

func (h *watchHarness) next(t *testing.T, what string) []string {
	t.Helper()
	select {
	case c := <-h.changes:
		names := make([]string, len(c))
		for i, p := range c {
			names[i] = filepath.Base(p)
		}
		return names
	case <-time.After(liveBound):
		t.Fatalf("no change reported for %s within %s", what, liveBound)
		return nil
	}
}

func TestWatcherFollowsDirectoriesCreatedLater(t *testing.T) {
	for _, notify := range []bool{true, false} {
		t.Run(map[bool]string{true: "notifications", false: "polling"}[notify], func(t *testing.T) {
			root := t.TempDir()
			cfg := filepath.Join(root, "a", "b", "claude")
			h := startWatch(t, cfg, notify)

			require.NoError(t, os.MkdirAll(filepath.Join(root, "a"), 0o700))
			require.NoError(t, os.MkdirAll(cfg, 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(cfg, ".credentials.json"), []byte(`{"claudeAiOauth":{}}`), 0o600))
			assert.Equal(t, []string{".credentials.json"}, h.next(t, "a file in a new directory"))

			require.NoError(t, os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{}`), 0o600))
			assert.Equal(t, []string{"settings.json"}, h.next(t, "a second file"))

			require.NoError(t, os.RemoveAll(filepath.Join(root, "a")))
			got := h.next(t, "the directory removed")
			assert.ElementsMatch(t, []string{".credentials.json", "settings.json"}, got)

			require.NoError(t, os.MkdirAll(cfg, 0o700))
			writeAtomic(t, filepath.Join(cfg, ".credentials.json"), []byte(`{"claudeAiOauth":{"x":1}}`))
			assert.Equal(t, []string{".credentials.json"}, h.next(t, "the directory made again"))
		})
	}
}

// A directory removed between being chosen and being watched must leave its ancestor watched; before, the
// watcher watched nothing and saw the directory made again only at the 30 s safety re-read.
func TestWatcherWatchesTheAncestorOfADirectoryThatVanishes(t *testing.T) {
	root := t.TempDir()
	parent := filepath.Join(root, "a")
	cfg := filepath.Join(parent, "claude")
	require.NoError(t, os.Mkdir(parent, 0o700))
	removed := false
	h := startWatchHooked(t, cfg, true, func(dir string) {
		if dir == parent && !removed {
			removed = true
			require.NoError(t, os.Remove(parent))
		}
	})
	require.True(t, removed, "the hook ran")

	require.NoError(t, os.MkdirAll(cfg, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(cfg, ".credentials.json"), []byte(`{"claudeAiOauth":{}}`), 0o600))
	assert.Equal(t, []string{".credentials.json"}, h.next(t, "a file in the directory made again"))
}

func TestWatcherIgnoresNonAuthChangesToTheGlobalState(t *testing.T) {
	cfg := t.TempDir()
	state := filepath.Join(cfg, ".claude.json")
	require.NoError(t, os.WriteFile(state, []byte(`{"numStartups":1}`), 0o600))
	h := startWatch(t, cfg, true)

	// Noise first, then a real change: the first report must name only the real one.
	writeAtomic(t, state, []byte(`{"numStartups":2,"projects":{"/x":{}}}`))
	require.NoError(t, os.WriteFile(state, []byte(`{ "numStartups": 3 }`), 0o600))
	require.NoError(t, os.Mkdir(filepath.Join(cfg, "projects"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(cfg, "history.jsonl"), []byte("{}\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"model":"opus"}`), 0o600))
	assert.Equal(t, []string{"settings.json"}, h.next(t, "settings.json"))

	writeAtomic(t, state, []byte(`{"numStartups":4,"oauthAccount":{"emailAddress":"a@b.c"}}`))
	assert.Equal(t, []string{".claude.json"}, h.next(t, "a new account in .claude.json"))
	// Reformatting the same auth keys is not a change; a key removed is.
	require.NoError(t, os.WriteFile(state, []byte(`{"numStartups":5,"oauthAccount":{ "emailAddress" : "a@b.c" }}`), 0o600))
	require.NoError(t, os.WriteFile(state, []byte(`{"numStartups":6}`), 0o600))
	assert.Equal(t, []string{".claude.json"}, h.next(t, "the account removed"))
	select {
	case c := <-h.changes:
		t.Fatalf("unexpected extra change %v", c)
	default:
	}
}

func TestGlobalStateFingerprint(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".claude.json")
	absent, keep := globalStateAuth(p)
	require.False(t, keep)
	require.NoError(t, os.WriteFile(p, []byte(`{"tips":1}`), 0o600))
	noKeys, _ := globalStateAuth(p)
	assert.Equal(t, absent, noKeys, "a file without auth keys counts as no file")
	require.NoError(t, os.WriteFile(p, []byte(`{"primaryApiKey":"`+fakeKey+`"`), 0o600))
	_, keep = globalStateAuth(p)
	assert.True(t, keep, "a half-written file keeps the previous fingerprint")
	require.NoError(t, os.WriteFile(p, []byte(`{"primaryApiKey":"`+fakeKey+`"}`), 0o600))
	withKey, _ := globalStateAuth(p)
	assert.NotEqual(t, absent, withKey)
}
