package runner

import (
	"context"
	"fmt"

	"github.com/baton-console/baton/app/auth"
)

// AuthError says the local Claude Code sign-in cannot be used (signed out, or the check itself failed), and
// what to do about it.
type AuthError struct {
	State auth.State
}

func (e *AuthError) Error() string {
	msg := e.State.Summary
	if e.State.Reason != "" {
		msg += ": " + e.State.Reason
	}
	if e.State.SignInCommand != "" {
		msg += " To sign in, run: " + e.State.SignInCommand
	}
	return msg
}

// CheckAuth checks, before the first run, that Claude Code can work with the local sign-in: the same
// `claude auth status` probe the console uses (not whether ~/.claude exists), with the claude and environment the
// runs get. It returns nil when signed in, an *AuthError when not.
func (r *Runner) CheckAuth(ctx context.Context) error {
	svc, err := auth.NewService(auth.Options{Executable: r.cfg.Executable, Env: r.cfg.Env, Logger: r.cfg.Logger})
	if err != nil {
		return fmt.Errorf("check the Claude Code sign-in: %w", err)
	}
	defer svc.Close()
	st, err := svc.Refresh(ctx)
	if err != nil { // only the credential gate (ctx ended, or it stayed busy); a failed probe is a State
		return fmt.Errorf("check the Claude Code sign-in: %w", err)
	}
	if !st.SignedIn() {
		return &AuthError{State: st}
	}
	return nil
}
