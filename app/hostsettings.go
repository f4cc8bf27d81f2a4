package app

import (
	"context"
	"os"
	"time"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/provision/platform"
)

// settingsStep opens the console settings kept in Baton's data dir and applies the saved idle time, unless
// BATON_SESSION_IDLE set one for this launch. Without it Baton runs on defaults (saving says why it cannot).
func settingsStep() hostStep {
	return hostStep{name: "console settings",
		open: func(_ context.Context, h *Host) error {
			dir, err := platform.DataDir()
			if err == nil {
				h.settings, err = console.OpenSettings(dir, console.DefaultSettings(int(h.sessions.Idle()/time.Second)))
			}
			if err != nil {
				h.log.Warn().Err(err).Msg("console settings are not kept")
				return nil
			}
			if s, saved := h.settings.Get(); saved && os.Getenv("BATON_SESSION_IDLE") == "" {
				h.sessions.SetIdle(time.Duration(s.SessionIdleSeconds) * time.Second)
			}
			return nil
		},
		close: func(*Host) {},
	}
}
