// Package app is Baton's host: it wires the runtime (sessions, provisioning, sign-in) to the front ends — the
// window, the headless commands and the loopback browser host.
package app

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"github.com/baton-console/baton/app/cli"
	"github.com/rs/zerolog"
)

// Version is Baton's version, set at build time.
var Version = "0.1.0-dev"

const usage = `Baton — a desktop console for Claude Code.

usage:
  baton                      open the window
  baton exec [flags] PROMPT  run one turn headless (baton exec --help)
  baton acp                  an Agent Client Protocol agent on stdin/stdout (Zed, JetBrains, Neovim)
  baton run [flags] PROMPT   a restricted run: only the tools you give, no built-in (baton run --help)
  baton sessions [flags]     list sessions across projects, newest first
  baton history ID [flags]   print a session's history
  baton search QUERY [flags] find messages and tool calls across every session
  baton usage [flags]        tokens and cost by day, week, month, project, model or session
  baton changes ID [--json]  the files a session changed (in its worktree, against its base)
  baton land ID --merge|…    land a worktree session: --merge, --squash, --rebase, --pr or --discard
  baton archive ID           remove a worktree session's worktree (never losing work without --force)
  baton serve [--listen A]   the console in a browser, on loopback
  baton provision [flags]    install the pinned claude executable
  baton doctor [flags]       say which claude will run and whether it was verified
  baton smoke [--sidecar P]  check the installed sidecar (no claude, no network)
  baton version              print Baton's, the SDK's and the pinned claude's versions
`

// Main runs Baton with the command-line arguments (without the program name) and returns the exit code.
func Main(args []string, assets fs.FS) int {
	log, closer := openLog()
	defer closer.Close()
	if len(args) == 0 {
		return runWindow(assets, log)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "-h", "--help", "help":
		fmt.Fprint(os.Stdout, usage)
		return cli.ExitOK
	case "version", "--version":
		fmt.Fprint(os.Stdout, cli.VersionText(Version))
		return cli.ExitOK
	case "smoke":
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return cli.RunSmoke(ctx, rest, os.Stdout, os.Stderr, sidecarPath())
	case "serve":
		return runServe(rest, assets, log)
	}
	runner, ok := commands()[cmd]
	if !ok {
		fmt.Fprintf(os.Stderr, "baton: unknown command %q\n\n%s", cmd, usage)
		return cli.ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	return runner(ctx, rest, log)
}

type runner func(ctx context.Context, args []string, log zerolog.Logger) int

// commands are the headless commands by name.
func commands() map[string]runner {
	return map[string]runner{
		"acp":       withSessions(cli.RunACP),
		"exec":      withSessions(cli.RunExec),
		"run":       withSessions(cli.RunRun),
		"sessions":  withHost(openListingHost, cli.RunSessions),
		"history":   withSessions(cli.RunHistory),
		"search":    withSessions(cli.RunSearch),
		"usage":     withSessions(cli.RunUsage),
		"changes":   withSessions(cli.RunChanges),
		"land":      withSessions(cli.RunLand),
		"archive":   withSessions(cli.RunArchive),
		"provision": plain(cli.RunProvision),
		"doctor":    plain(cli.RunDoctor),
	}
}

// plain adapts a command that needs only the standard streams.
func plain(run func(context.Context, []string, io.Writer, io.Writer) int) runner {
	return func(ctx context.Context, args []string, _ zerolog.Logger) int {
		return run(ctx, args, os.Stdout, os.Stderr)
	}
}

// withSessions gives a command a Host with sessions and closes it (closing what is open) afterwards.
func withSessions(run func(context.Context, []string, cli.Env) int) runner {
	return withHost(openCommandHost, run)
}

// withHost is withSessions with the Host open opens.
func withHost(open func(context.Context, zerolog.Logger) (*Host, error), run func(context.Context, []string, cli.Env) int) runner {
	return func(ctx context.Context, args []string, log zerolog.Logger) int {
		h, err := open(ctx, log)
		if err != nil {
			fmt.Fprintf(os.Stderr, "baton: %v\n", err)
			return cli.ExitFailure
		}
		defer h.Close()
		env := cli.StdEnv(h.Sessions(), indexWatch{h.State()})
		env.Meta = h.meta
		env.Logger, env.Version = log, Version
		if h.index != nil {
			env.Search, env.Usage = builtIndex{h.index}, builtIndex{h.index}
		}
		return run(ctx, args, env)
	}
}
