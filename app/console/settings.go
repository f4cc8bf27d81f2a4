package console

import (
	"strings"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/gitwork"
)

// maxModelChars bounds a default model name (an alias or a model id).
const maxModelChars = 200

// GetSettings returns the saved settings; where nothing was saved, the defaults with this run's idle time.
func (a *API) GetSettings(Empty) (Settings, error) {
	if a.opts.Settings == nil {
		return DefaultSettings(int(a.opts.Sessions.Idle() / time.Second)), nil
	}
	s, saved := a.opts.Settings.Get()
	if !saved {
		s.SessionIdleSeconds = int(a.opts.Sessions.Idle() / time.Second)
	}
	return s, nil
}

// SaveSettings checks the settings, saves them in Baton's data dir and applies the idle time at once.
func (a *API) SaveSettings(p Settings) (Settings, error) {
	if err := checkSettings(&p); err != nil {
		return Settings{}, err
	}
	if a.opts.Settings == nil {
		return Settings{}, &Error{Code: CodeUnavailable, Message: "Baton has no data folder here, so it cannot keep settings."}
	}
	if err := a.opts.Settings.Save(p); err != nil {
		return Settings{}, err
	}
	a.opts.Sessions.SetIdle(time.Duration(p.SessionIdleSeconds) * time.Second)
	a.opts.Logger.Info().Str("theme", p.Theme.String()).Bool("notifications", p.Notifications).Int("idleSeconds", p.SessionIdleSeconds).
		Bool("startInWorktree", p.Worktrees.StartInWorktree).Msg("settings saved")
	return p, nil
}

func checkSettings(p *Settings) error {
	p.DefaultModel = strings.TrimSpace(p.DefaultModel)
	switch {
	case p.DefaultModel == "" || len(p.DefaultModel) > maxModelChars:
		return badRequest("Name a default model (or \"default\" for Claude Code's own), at most %d characters.", maxModelChars)
	case !p.DefaultPermissionMode.Valid():
		return badRequest("%q is not a permission mode.", p.DefaultPermissionMode)
	case p.DefaultPermissionMode == activity.PermissionModeBypassPermissions:
		return badRequest("Bypassing permissions cannot be a default: choose it for a session when you start it.")
	case !p.Theme.Valid():
		return badRequest("The theme must be system, light or dark.")
	case p.SessionIdleSeconds < 0 || p.SessionIdleSeconds > maxIdleSeconds:
		return badRequest("The idle time must be between 0 (never sleep) and %d seconds.", maxIdleSeconds)
	}
	p.Worktrees.BranchPrefix = strings.TrimSpace(p.Worktrees.BranchPrefix)
	if err := gitwork.CheckBranchPrefix(p.Worktrees.BranchPrefix); err != nil {
		return badRequest("The branch prefix %q cannot start a branch name: %v. Try one like baton/ (or none).", p.Worktrees.BranchPrefix, err)
	}
	return nil
}

// branchPrefix is the saved prefix of a new worktree session's branch (nil: none saved, gitwork's default).
func (a *API) branchPrefix() *string {
	if a.opts.Settings == nil {
		return nil
	}
	s, _ := a.opts.Settings.Get()
	return &s.Worktrees.BranchPrefix
}

// rememberIdle keeps an idle time set on its own (the sidebar's choice) in the saved settings, so it survives a
// restart; without a data folder it lasts this run.
func (a *API) rememberIdle(seconds int) {
	if a.opts.Settings == nil {
		return
	}
	s, saved := a.opts.Settings.Get()
	if !saved {
		s = DefaultSettings(seconds)
	}
	s.SessionIdleSeconds = seconds
	if err := a.opts.Settings.Save(s); err != nil {
		a.opts.Logger.Warn().Err(err).Msg("the idle time is not kept after a restart")
	}
}
