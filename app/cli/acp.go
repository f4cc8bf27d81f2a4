package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/baton-console/baton/app/acp"
	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/provision"
)

const acpUsage = "baton acp [--login]"

// RunACP serves the Agent Client Protocol on stdin/stdout until the client closes stdin: stdout carries only
// protocol lines (logs go to Baton's log). --login is the terminal sign-in a client runs: Claude Code's own login.
func RunACP(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("acp", acpUsage, env.Stderr)
	login := fs.Bool("login", false, "sign in with Claude Code's own login (what an ACP client runs in its terminal)")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if fs.NArg() > 0 {
		return usageError(env.Stderr, acpUsage, "unexpected arguments: %v", fs.Args())
	}
	if *login {
		return runLogin(ctx, env)
	}
	cfg := acp.Config{Sessions: env.Sessions, Version: env.Version, Logger: env.Logger, SignedIn: acpSignedIn(env)}
	if err := acp.Serve(ctx, cfg, env.Stdin, env.Stdout); err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	return ExitOK
}

// acpSignedIn asks Claude Code whether it is signed in (`claude auth status`, the console's probe) for an ACP
// client's authenticate. Only a sign-in known to be missing refuses: a check that cannot decide lets the client
// go on, and a session's turn then reports its own failure.
func acpSignedIn(env Env) func(context.Context) error {
	return func(ctx context.Context) error {
		sel, err := provision.Select(ctx, provision.SelectOptions{})
		if err != nil {
			return fmt.Errorf("there is no Claude Code to ask (%w); run baton provision", err)
		}
		svc, err := auth.NewService(auth.Options{Executable: func(context.Context) (string, error) { return sel.Path, nil }, Logger: env.Logger})
		if err != nil {
			return fmt.Errorf("the sign-in could not be checked: %w", err)
		}
		defer svc.Close()
		st, err := svc.Refresh(ctx)
		if err != nil {
			return fmt.Errorf("the sign-in could not be checked: %w", err)
		}
		if st.Status == auth.StatusSignedOut {
			return errors.New(st.Summary)
		}
		return nil
	}
}

// runLogin runs `claude auth login` in this terminal: the credentials are claude's, never Baton's.
func runLogin(ctx context.Context, env Env) int {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: find the claude executable: %v (run baton provision)\n", err)
		return ExitFailure
	}
	argv := auth.SignInCommand(sel.Path)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, env.Stderr, env.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(env.Stderr, "baton: claude auth login: %v\n", err)
		return ExitFailure
	}
	return ExitOK
}
