package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/baton-console/baton/provision/platform"
	"github.com/rs/zerolog"
)

// openLog writes structured logs to <data dir>/logs/baton.log. Logging must never stop Baton from working, so
// a log that cannot be opened turns logging off rather than failing the command.
func openLog() (zerolog.Logger, io.Closer) {
	dir, err := platform.DataDir()
	if err != nil {
		return zerolog.Nop(), io.NopCloser(nil)
	}
	logDir := filepath.Join(dir, "logs")
	if err := os.MkdirAll(logDir, 0o700); err != nil {
		return zerolog.Nop(), io.NopCloser(nil)
	}
	f, err := os.OpenFile(filepath.Join(logDir, "baton.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return zerolog.Nop(), io.NopCloser(nil)
	}
	level := zerolog.InfoLevel
	if os.Getenv("BATON_DEBUG") != "" {
		level = zerolog.DebugLevel
	}
	log := zerolog.New(f).Level(level).With().Timestamp().Int("pid", os.Getpid()).Logger()
	return log, f
}

// LogPath says where the log is, for doctor and error messages.
func LogPath() string {
	dir, err := platform.DataDir()
	if err != nil {
		return fmt.Sprintf("(no data directory: %v)", err)
	}
	return filepath.Join(dir, "logs", "baton.log")
}
