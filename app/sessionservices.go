package app

import (
	"os"
	"path/filepath"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/baton-console/baton/app/sessionwatch"
	"github.com/baton-console/baton/provision/platform"
	"github.com/rs/zerolog"
)

// openSessionMeta opens the pins, archives and forks kept in Baton's data dir. Without it Baton still runs (the
// console says pins are unavailable), and the log says why.
func openSessionMeta(log zerolog.Logger) *sessionmeta.Store {
	dir, err := platform.DataDir()
	if err == nil {
		var store *sessionmeta.Store
		if store, err = sessionmeta.Open(dir); err == nil {
			return store
		}
	}
	log.Warn().Err(err).Msg("pinned and archived sessions are not kept")
	return nil
}

// watchSessions tells every console when Claude Code's stored sessions change outside this Baton (the CLI,
// `baton exec`, another Baton). Sessions open here are left out: their own events already reach the console.
// nil when the folder cannot be watched; the console then sees such sessions on its next refresh.
func watchSessions(host *console.HostState, m *session.Manager, log zerolog.Logger) *sessionwatch.Watcher {
	paths, err := auth.ResolvePaths(os.Environ())
	if err != nil {
		log.Warn().Err(err).Msg("sessions from outside Baton are not watched")
		return nil
	}
	w, err := sessionwatch.Start(sessionwatch.Options{
		ProjectsDir: filepath.Join(paths.ConfigDir, "projects"),
		Ignore: func(id string) bool {
			_, open := m.Get(id)
			return open
		},
		OnChange: host.SessionsChanged,
		Logger:   log,
	})
	if err != nil {
		log.Warn().Err(err).Msg("sessions from outside Baton are not watched")
		return nil
	}
	return w
}
