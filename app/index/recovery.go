package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"
)

// FileName is the index's database in Baton's data dir. Deleting it (with Baton stopped) is safe: it is rebuilt
// from the transcripts, which stay the source of truth.
const FileName = "index.db"

// openRecovering opens the index in dir. One that is damaged, not SQLite or of another schema is moved aside as
// index.db.corrupt-<time> (with its WAL), logged, and a new one is built in its place (recovered: true).
func openRecovering(ctx context.Context, dir string, whole bool, log zerolog.Logger) (s *store, recovered bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, fmt.Errorf("create Baton's data folder %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	s, err = openStore(ctx, path, whole)
	if err == nil {
		return s, false, nil
	}
	if !errors.Is(err, errCorrupt) {
		return nil, false, err
	}
	aside := fmt.Sprintf("%s.corrupt-%s", path, time.Now().UTC().Format("20060102T150405.000000000Z"))
	if mvErr := moveAside(path, aside); mvErr != nil {
		return nil, false, fmt.Errorf("%w; moving it aside failed too: %w", err, mvErr)
	}
	log.Warn().Err(err).Str("movedTo", aside).Msg("the session index was unusable; it is rebuilt from the transcripts")
	s, err = openStore(ctx, path, whole)
	return s, err == nil, err
}

// moveAside renames the database and its WAL and shared-memory files (those that exist).
func moveAside(path, aside string) error {
	if err := os.Rename(path, aside); err != nil {
		return fmt.Errorf("move %s aside: %w", path, err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, aside+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("move %s aside: %w", path+suffix, err)
		}
	}
	return nil
}
