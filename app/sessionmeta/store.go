// Package sessionmeta keeps what Baton itself knows about stored sessions, beyond Claude Code's own files: which
// ones the person pinned or archived, which session a fork was made from, the name given in Baton, and the git worktree a session runs in. Claude Code's transcripts are not
// Baton's to write, so this lives in Baton's data dir.
//
// Format: one small JSON file, sessions.json, replaced whole on every change (written to a temporary file in the
// same directory, fsync'd, then renamed over the old one), so a crash leaves the old state or the new one, never
// half of either.
package sessionmeta

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/baton-console/baton/app/internal/filelock"
)

// FileName is the store's file inside the data dir.
const FileName = "sessions.json"

// fileVersion is the format of FileName; a file of another version is refused, not overwritten.
const fileVersion = 1

// maxFileBytes bounds what Open reads: the file holds a few fields per session, so anything larger is not ours.
const maxFileBytes = 16 << 20

// Meta is Baton's own state for one session. The zero value means nothing is recorded.
type Meta struct {
	Pinned   bool   `json:"pinned,omitempty"`
	Archived bool   `json:"archived,omitempty"`
	ForkOf   string `json:"forkOf,omitempty"`
	// Title is the name given in Baton (a fork's "Fork of <title>", a rename): kept here too because a fork's
	// transcript, where Claude Code keeps a title, is written only with its first turn.
	Title string `json:"title,omitempty"`
	// Worktree is the git worktree the session was started in (zero: none). Files written before it existed
	// simply lack the key.
	Worktree Worktree `json:"worktree,omitzero"`
}

// Worktree records where a session's own checkout is and what it will land into.
type Worktree struct {
	Repo   string `json:"repo"`   // the main checkout's root
	Path   string `json:"path"`   // the worktree's folder
	Branch string `json:"branch"` // the session's branch
	Base   string `json:"base"`   // the ref it branched from and lands into
}

// IsZero says no worktree is recorded.
func (w Worktree) IsZero() bool { return w == Worktree{} }

func (m Meta) empty() bool { return m == Meta{} }

type file struct {
	Version  int             `json:"version"`
	Sessions map[string]Meta `json:"sessions"`
}

// Store is the durable session metadata. It is safe for concurrent use; several Baton processes sharing a data dir
// each keep their own copy, and each change is made to what the file holds at that moment, under a file lock.
type Store struct {
	path string
	// refused is why the file could not be read: such a store records nothing, so the file is never overwritten,
	// and every change says why (nil: the store works).
	refused error

	mu       sync.Mutex
	sessions map[string]Meta
}

// UnreadableError says the store's file could not be read. The file is left as it is, for the person to look at.
type UnreadableError struct {
	Path string
	Why  string // "is damaged (…)", "has format 9 …"
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("the pinned and archived sessions file %s %s; Baton left it as it is. Move it aside (or delete it) and restart Baton to pin and archive again", e.Path, e.Why)
}

// Open reads the store in dir (created when missing). A file that cannot be read is never overwritten: Open then
// returns an *UnreadableError together with a store that records nothing and returns that error from every Update,
// so the console can say what is wrong instead of that pins are unavailable.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create Baton's data folder %s: %w", dir, err)
	}
	s := &Store{path: filepath.Join(dir, FileName), sessions: map[string]Meta{}}
	sessions, err := read(s.path)
	if err != nil {
		s.refused = err
		return s, err
	}
	s.sessions = sessions
	return s, nil
}

// read loads path; a missing file is an empty store.
func read(path string) (map[string]Meta, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return map[string]Meta{}, nil
	case err != nil:
		return nil, &UnreadableError{Path: path, Why: fmt.Sprintf("could not be read (%v)", err)}
	case len(data) > maxFileBytes:
		return nil, &UnreadableError{Path: path, Why: fmt.Sprintf("is larger than %d MiB", maxFileBytes>>20)}
	}
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, &UnreadableError{Path: path, Why: fmt.Sprintf("is damaged (%v)", err)}
	}
	if f.Version != fileVersion {
		return nil, &UnreadableError{Path: path, Why: fmt.Sprintf("has format %d, this Baton reads %d (another version of Baton wrote it)", f.Version, fileVersion)}
	}
	return f.records(), nil
}

func (f file) records() map[string]Meta {
	out := make(map[string]Meta, len(f.Sessions))
	for id, m := range f.Sessions {
		if !m.empty() {
			out[id] = m
		}
	}
	return out
}

// refresh takes what another process sharing the data dir saved since (`baton exec --worktree` records a
// worktree while the window is open), so this one's next save keeps it. A file that cannot be read now keeps the
// copy in memory: Open already vetted the file, and a save replaces it whole. The caller holds mu.
func (s *Store) refresh() {
	if sessions, err := read(s.path); err == nil {
		s.sessions = sessions
	}
}

// Get returns what is recorded for session id (the zero Meta when nothing is).
func (s *Store) Get(id string) Meta {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[id]
}

// Update changes the record of session id with change and saves the store before returning. When saving fails
// the record is left as it was, in memory and on disk.
func (s *Store) Update(id string, change func(*Meta)) (Meta, error) {
	if id == "" {
		return Meta{}, errors.New("no session named")
	}
	if s.refused != nil {
		return Meta{}, s.refused
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Other Baton processes (`baton exec --worktree` beside the window) change the file too: what is read, changed
	// and written back happens under a lock they share, so no one's change is lost.
	unlock, err := filelock.Lock(s.path + ".lock")
	if err != nil {
		return Meta{}, fmt.Errorf("save the pinned and archived sessions: %w", err)
	}
	defer unlock()
	s.refresh()
	old, had := s.sessions[id]
	m := old
	change(&m)
	if m.empty() {
		delete(s.sessions, id)
	} else {
		s.sessions[id] = m
	}
	if err := s.save(); err != nil {
		if had {
			s.sessions[id] = old
		} else {
			delete(s.sessions, id)
		}
		return old, err
	}
	return m, nil
}

// save writes the whole store atomically; the caller holds mu.
func (s *Store) save() error {
	ids := make([]string, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids) // a stable file: diffs and backups stay readable
	ordered := make(map[string]Meta, len(ids))
	for _, id := range ids {
		ordered[id] = s.sessions[id]
	}
	data, err := json.MarshalIndent(file{Version: fileVersion, Sessions: ordered}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the pinned and archived sessions: %w", err)
	}
	if err := writeAtomic(s.path, append(data, '\n')); err != nil {
		return fmt.Errorf("save the pinned and archived sessions to %s: %w", s.path, err)
	}
	return nil
}

// writeAtomic replaces path with data: a temporary file beside it, fsync'd, renamed over it, then the directory
// fsync'd so the rename itself survives a crash.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	ok = true
	if dir, err := os.Open(filepath.Dir(path)); err == nil {
		_ = dir.Sync() // best effort: not every platform syncs directories
		_ = dir.Close()
	}
	return nil
}
