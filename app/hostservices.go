package app

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/provision"
	"github.com/rs/zerolog"
)

// hostServices is the work beyond sessions that the window and browser mode run: provisioning claude on first
// launch and watching the sign-in state, both reflected into the console's HostState.
type hostServices struct {
	host     *console.HostState
	resolver *claudeResolver
	auth     *auth.Service
	log      zerolog.Logger
	ctx      context.Context
	cancel   context.CancelFunc

	mu           sync.Mutex
	provisioning bool
}

func startHostServices(log zerolog.Logger) *hostServices {
	ctx, cancel := context.WithCancel(context.Background())
	h := &hostServices{host: console.NewHostState(), log: log, ctx: ctx, cancel: cancel}
	h.resolver = &claudeResolver{log: log, onProgress: h.onProgress}
	svc, err := auth.NewService(auth.Options{Executable: selectedClaude, Logger: log})
	if err != nil {
		log.Error().Err(err).Msg("sign-in watcher")
	} else if err := svc.Start(ctx); err != nil {
		log.Error().Err(err).Msg("sign-in watcher")
	} else {
		h.auth = svc
		updates, _ := svc.Subscribe()
		go func() {
			for st := range updates {
				h.host.SetAuth(st)
			}
		}()
	}
	h.retryProvision()
	return h
}

// selectedClaude is the executable the sign-in probe runs: only what is already there (a probe must be quick
// and never download), "" when there is none yet.
func selectedClaude(ctx context.Context) (string, error) {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err != nil {
		return "", nil
	}
	return sel.Path, nil
}

// retryProvision makes sure the claude executable is there, installing it when needed; one run at a time.
func (h *hostServices) retryProvision() {
	h.mu.Lock()
	if h.provisioning {
		h.mu.Unlock()
		return
	}
	h.provisioning = true
	h.mu.Unlock()
	go func() {
		defer func() {
			h.mu.Lock()
			h.provisioning = false
			h.mu.Unlock()
		}()
		h.host.SetProvision(console.ProvisionState{State: "checking"})
		path, err := h.resolver.resolve(h.ctx)
		if err != nil {
			msg, hints := splitProvisionError(err)
			h.host.SetProvision(console.ProvisionState{State: "failed", Message: msg, Hints: hints})
			h.log.Warn().Err(err).Msg("provisioning failed")
			return
		}
		st := console.ProvisionState{State: "ready", Path: path}
		if sel, err := provision.Select(h.ctx, provision.SelectOptions{}); err == nil {
			st.Version, st.Source = sel.Version, sel.Source
		}
		h.host.SetProvision(st)
		if h.auth != nil {
			go func() { _, _ = h.auth.Refresh(h.ctx) }() // a fresh install can now answer the probe
		}
	}()
}

func (h *hostServices) onProgress(p provision.Progress) {
	h.host.SetProvision(console.ProvisionState{State: "downloading", Bytes: p.Bytes, Total: p.Total, Rate: p.Rate,
		Source: p.Source, Message: p.Message})
}

// signIn opens a terminal running claude's own sign-in; the watcher notices when it completes.
func (h *hostServices) signIn() error {
	exe, _ := selectedClaude(h.ctx)
	if exe == "" {
		return errors.New("claude is not installed yet; wait for the installation to finish")
	}
	err := auth.OpenSignInTerminal(h.ctx, exe, nil)
	var noTerm *auth.NoTerminalError
	if errors.As(err, &noTerm) {
		return errors.New("no terminal could be opened; run this in a terminal: " + noTerm.Command)
	}
	return err
}

func (h *hostServices) close() {
	h.cancel()
	if h.auth != nil {
		h.auth.Close()
	}
}

// splitProvisionError turns provisioning's report into a headline and the lines that say what was tried and
// what to do.
func splitProvisionError(err error) (string, []string) {
	lines := strings.Split(err.Error(), "\n")
	var hints []string
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- ")); l != "" {
			hints = append(hints, l)
		}
	}
	return lines[0], hints
}
