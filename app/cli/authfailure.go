package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/provision"
)

// signInProbe asks for the current sign-in state (nil when it cannot be known); tests replace it.
type signInProbe func(ctx context.Context) *auth.State

// probeSignIn checks the sign-in with the claude sessions run (the same selection: CLAUDE_CODE_EXECUTABLE, the
// SDK's package, the provisioned binary) and the environment they get (Baton's own).
func probeSignIn(ctx context.Context) *auth.State {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err != nil {
		return nil
	}
	return signInReport(ctx, sel.Path)
}

// explainAuthFailure explains a failed turn as a sign-in problem ("Signed out" or "Key rejected", with the
// sign-in command where signing in helps). ok=false: the failure is not about authentication, or the probe
// could not say more. Only failures that look like authentication pay for a probe.
func explainAuthFailure(ctx context.Context, ev activity.Event, probe signInProbe) (auth.TurnFailure, bool) {
	if ev.Kind != activity.TurnFailed {
		return auth.TurnFailure{}, false
	}
	if _, ok := auth.ClassifyTurnFailure(ev.Code, ev.Message, auth.State{}); !ok {
		return auth.TurnFailure{}, false
	}
	st := auth.State{Status: auth.StatusUnknown}
	if probe != nil {
		if probed := probe(ctx); probed != nil {
			st = *probed
		}
	}
	return auth.ClassifyTurnFailure(ev.Code, ev.Message, st)
}

// renderAuthFailure writes the explanation as a person reads it.
func renderAuthFailure(w io.Writer, f auth.TurnFailure) {
	fmt.Fprintf(w, "%s: %s\n", f.Title, f.Message)
	if f.SignInCommand != "" {
		fmt.Fprintf(w, "  To sign in, run: %s\n", f.SignInCommand)
	}
}
