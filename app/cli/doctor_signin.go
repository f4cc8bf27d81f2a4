package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/baton-console/baton/app/auth"
)

// signInReport probes Claude Code's sign-in with the executable doctor found (nil when there is none).
func signInReport(ctx context.Context, exe string) *auth.State {
	if exe == "" {
		return nil
	}
	svc, err := auth.NewService(auth.Options{Executable: func(context.Context) (string, error) { return exe, nil }})
	if err != nil {
		return &auth.State{Status: auth.StatusUnknown, Summary: "The sign-in could not be checked", Reason: err.Error()}
	}
	defer svc.Close()
	st, err := svc.Refresh(ctx)
	if err != nil && st.Status == "" {
		return &auth.State{Status: auth.StatusUnknown, Summary: "The sign-in could not be checked", Reason: err.Error()}
	}
	return &st
}

func renderSignIn(w io.Writer, st *auth.State) {
	fmt.Fprintln(w, "sign-in")
	if st == nil {
		fmt.Fprintln(w, "  state     unknown: there is no claude executable to ask (see above)")
		return
	}
	fmt.Fprintf(w, "  state     %s\n", st.Summary)
	if st.Reason != "" {
		fmt.Fprintf(w, "  why       %s\n", st.Reason)
	}
	for _, warn := range st.Warnings {
		fmt.Fprintf(w, "  warning   %s\n", warn.Message)
	}
	if st.ConfigDir != "" {
		fmt.Fprintf(w, "  config    %s\n", st.ConfigDir)
	}
	if !st.SignedIn() && st.SignInCommand != "" {
		fmt.Fprintf(w, "  sign in   %s\n", st.SignInCommand)
	}
}
