package runner

import (
	"context"
	"errors"
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

// requireSignIn is Run's first step: a signed-out Claude Code fails the run at once with the sign-in hint, before a
// sidecar and the CLI start only to fail the first turn. A sign-in once seen is trusted for the runner's life (a
// later sign-out fails that run's turn, explained the same way); a check that could not decide (StatusUnknown) lets
// the run go ahead and report its own failure rather than refuse a sign-in that may work.
func (r *Runner) requireSignIn(ctx context.Context) (detail string, err error) {
	if r.signedIn.Load() {
		return "", nil
	}
	err = r.CheckAuth(ctx)
	var authErr *AuthError
	switch {
	case err == nil:
		r.signedIn.Store(true)
		return "", nil
	case ctx.Err() != nil:
		return "canceled", fmt.Errorf("the run was canceled: %w", ctx.Err())
	case errors.As(err, &authErr) && authErr.State.Status == auth.StatusSignedOut:
		return "auth", err
	default:
		r.cfg.Logger.Warn().Err(err).Msg("the sign-in check could not decide; running anyway")
		return "", nil
	}
}
