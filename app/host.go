package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/discovery"
	"github.com/baton-console/baton/app/index"
	"github.com/baton-console/baton/app/receipts"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/baton-console/baton/app/sessionwatch"
	"github.com/baton-console/baton/app/terminal"
	"github.com/rs/zerolog"
)

// Host is Baton's runtime as one value: the services the window and `baton serve` run, and the part of them a
// headless command needs. Open brings them up in order (hostSteps); Close takes them down in reverse, so nothing
// is closed while something opened after it still uses it (sessions write receipts; the watcher asks sessions).
type Host struct {
	log    zerolog.Logger
	claude *claudeResolver // the claude a session runs; provisions it first when there is none

	// Only with the console's steps: provisioning and sign-in as the console shows them, and models.
	state     *console.HostState
	provision *provisioner
	auth      *auth.Service
	authStop  context.CancelFunc // ends the sign-in watcher's context
	models    *discovery.Service

	receipts    *receipts.Store // nil: no data dir, no receipts kept
	sessions    *session.Manager
	index       *index.Index           // nil: history is read from the transcripts by a one-shot sidecar
	indexMapper *index.SidecarMapper   // the index's own sidecar
	meta        *sessionmeta.Store     // nil: pins and archives are not kept
	settings    *console.SettingsStore // nil: the console settings are not kept
	watcher     *sessionwatch.Watcher  // nil: outside sessions are seen on refresh only
	terminals   *terminal.Service      // nil: no terminals (a headless command)

	opened []hostStep // what Close undoes, in the order it was opened
}

// hostStep is one service of the Host: open sets its field (a service Baton can do without logs why and stays
// nil); close undoes it. An error from open means the Host cannot run.
type hostStep struct {
	name  string
	open  func(ctx context.Context, h *Host) error
	close func(h *Host)
}

// openConsoleHost opens what the window and `baton serve` run.
func openConsoleHost(ctx context.Context, log zerolog.Logger) (*Host, error) {
	return openHost(ctx, log, consoleSteps())
}

// openCommandHost opens what a headless command runs: sessions and their receipts, provisioning on stderr.
func openCommandHost(ctx context.Context, log zerolog.Logger) (*Host, error) {
	return openHost(ctx, log, commandSteps())
}

// openListingHost is openCommandHost for a command that only lists sessions (listingSteps).
func openListingHost(ctx context.Context, log zerolog.Logger) (*Host, error) {
	return openHost(ctx, log, listingSteps())
}

// openHost opens steps in order. When one fails (or ctx ends between them) what was opened is closed again,
// in reverse, and the error says which service could not start.
func openHost(ctx context.Context, log zerolog.Logger, steps []hostStep) (*Host, error) {
	h := &Host{log: log}
	for _, s := range steps {
		if err := ctx.Err(); err != nil {
			h.Close()
			//lint:ignore ST1005 the message is for people and starts with a name.
			return nil, fmt.Errorf("Baton stopped while starting (before %s): %w", s.name, err)
		}
		if err := s.open(ctx, h); err != nil {
			h.Close()
			return nil, fmt.Errorf("start %s: %w", s.name, err)
		}
		h.opened = append(h.opened, s)
	}
	return h, nil
}

// Close closes every open service in reverse order; closing twice does nothing.
func (h *Host) Close() {
	for i := len(h.opened) - 1; i >= 0; i-- {
		h.opened[i].close(h)
	}
	h.opened = nil
}

// Sessions is the session manager every front end drives.
func (h *Host) Sessions() *session.Manager { return h.sessions }

// State is provisioning, sign-in and the index as the console shows them (a headless command's has only the
// index's progress).
func (h *Host) State() *console.HostState { return h.state }

// ConsoleOptions are the console API's options over this Host; the front end adds its transport and what only
// it has (a folder picker, notifications).
func (h *Host) ConsoleOptions() console.Options {
	return console.Options{Sessions: h.sessions, Version: Version, Logger: h.log, Host: h.state, SignIn: h.signIn,
		RetryProvision: h.retryProvision, ListModels: h.listModels, Meta: h.meta, Settings: h.settings,
		Terminals: h.terminals, Claude: h.claudeExecutable, Index: h.consoleIndex()}
}

// retryProvision starts provisioning again after a failure (the console's retryProvision).
func (h *Host) retryProvision() {
	if h.provision != nil {
		h.provision.run()
	}
}

// listModels answers the console's listModels: the signed-in account's models.
func (h *Host) listModels(ctx context.Context) (console.ModelList, error) {
	if h.models == nil {
		return console.ModelList{}, errors.New("model discovery is not available: Baton has no data folder")
	}
	return h.models.List(ctx)
}

// signIn opens a terminal running claude's own sign-in; the watcher notices when it completes.
func (h *Host) signIn() error {
	ctx := context.Background()
	if h.provision != nil {
		ctx = h.provision.ctx
	}
	exe, _ := selectedClaude(ctx)
	if exe == "" {
		return errors.New("claude is not installed yet; wait for the installation to finish")
	}
	err := auth.OpenSignInTerminal(ctx, exe, nil)
	var noTerm *auth.NoTerminalError
	if errors.As(err, &noTerm) {
		return errors.New("no terminal could be opened; run this in a terminal: " + noTerm.Command)
	}
	return err
}
