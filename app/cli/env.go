// Package cli implements Baton's headless commands (exec, sessions, history, …), the way scripts, CI and power
// users drive the same runtime the window uses.
package cli

import (
	"context"
	"io"
	"os"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/rs/zerolog"
	"golang.org/x/term"
)

// Exit codes shared by the commands.
const (
	ExitOK       = 0
	ExitFailure  = 1
	ExitUsage    = 2
	ExitCanceled = 130
)

// Env is what a command needs from its caller.
type Env struct {
	Stdin    io.Reader
	Stdout   io.Writer
	Stderr   io.Writer
	Sessions *session.Manager
	// StdinIsTTY says whether a person can answer questions on stdin.
	StdinIsTTY bool
	// StderrIsTTY says whether a person watches stderr (progress lines are drawn there).
	StderrIsTTY bool
	// Index carries the session index's progress while a command waits for it (nil: none shown).
	Index IndexSource
	// SignInState reports the sign-in state when a turn fails for authentication (nil: ask the claude that
	// sessions run).
	SignInState func(ctx context.Context) *auth.State
	// Meta is Baton's own record of sessions (their worktrees); nil when it could not be opened.
	Meta *sessionmeta.Store
	// Logger is Baton's log (its file): a command whose stdout is a protocol logs there, never on stdout.
	Logger zerolog.Logger
	// Version is Baton's version, for a command that announces itself (baton acp).
	Version string
	// Search searches every stored session (nil: the index could not be opened).
	Search Searcher
	// Usage totals every stored session's usage (nil: the index could not be opened).
	Usage UsageSource
}

// StdEnv is the process's own standard streams; index (nil: none) is the host's state, for the index's progress.
func StdEnv(m *session.Manager, index IndexSource) Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Sessions: m, Index: index,
		StdinIsTTY: term.IsTerminal(int(os.Stdin.Fd())), StderrIsTTY: term.IsTerminal(int(os.Stderr.Fd()))}
}
