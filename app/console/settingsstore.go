package console

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/gitwork"
)

// SettingsFileName is the settings' file inside Baton's data dir.
const SettingsFileName = "settings.json"

// maxSettingsBytes bounds what is read: the file holds a handful of fields.
const maxSettingsBytes = 1 << 20

// DefaultSettings are the settings before any was saved: the CLI's default model, asking before tools, the OS
// theme, notifications on, idleSeconds (the launch's idle time), and new sessions in their folder (a worktree's
// branch, when asked for one, starting baton/). A file saved before a field existed reads that field's default.
func DefaultSettings(idleSeconds int) Settings {
	return Settings{DefaultModel: "default", DefaultPermissionMode: activity.PermissionModeDefault, Theme: ThemeSystem,
		Notifications: true, SessionIdleSeconds: idleSeconds,
		Worktrees: WorktreeDefaults{StartInWorktree: false, BranchPrefix: gitwork.DefaultBranchPrefix}}
}

// SettingsStore keeps the console settings in one JSON file, replaced whole on each save (a temporary file in the
// same folder, synced, then renamed over the old one), so a crash leaves the old settings or the new ones.
type SettingsStore struct {
	path string

	mu      sync.Mutex
	current Settings
	saved   bool
}

// OpenSettings reads the settings in dir (defaults when there is no file yet). A file that cannot be read is an
// error naming it: it is never overwritten unread.
func OpenSettings(dir string, defaults Settings) (*SettingsStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create Baton's data folder %s: %w", dir, err)
	}
	s := &SettingsStore{path: filepath.Join(dir, SettingsFileName), current: defaults}
	data, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return s, nil
	case err != nil:
		return nil, fmt.Errorf("read Baton's settings (%s): %w", s.path, err)
	case len(data) > maxSettingsBytes:
		return nil, fmt.Errorf("the settings file %s is larger than 1 MiB; move it aside and restart Baton", s.path)
	}
	loaded := defaults
	if err := json.Unmarshal(data, &loaded); err != nil {
		return nil, fmt.Errorf("the settings file %s is not valid JSON (%w); move it aside and restart Baton", s.path, err)
	}
	s.current, s.saved = loaded, true
	return s, nil
}

// Get returns the settings now, and whether they were ever saved (else they are the defaults).
func (s *SettingsStore) Get() (Settings, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current, s.saved
}

// Save replaces the settings on disk, then in memory.
func (s *SettingsStore) Save(next Settings) error {
	data, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the settings: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := writeFileAtomic(s.path, append(data, '\n')); err != nil {
		return fmt.Errorf("save Baton's settings in %s: %w", s.path, err)
	}
	s.current, s.saved = next, true
	return nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() { _ = os.Remove(name) }() // gone already after the rename
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
	return os.Rename(name, path)
}
