package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/discovery"
	"github.com/baton-console/baton/provision"
	"github.com/rs/zerolog"
)

// hostServices is the work beyond sessions that the window and browser mode run: provisioning claude on first
// launch and watching the sign-in state, both reflected into the console's HostState, and discovering the
// models the signed-in account offers.
type hostServices struct {
	host     *console.HostState
	resolver *claudeResolver
	auth     *auth.Service
	models   *discovery.Service
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
	h.models = startModelDiscovery(h.auth, log)
	h.retryProvision()
	return h
}

// startModelDiscovery runs hidden model discoveries from <data dir>/discovery, cached per account; a sign-in change
// clears the cache. nil when there is no data directory.
func startModelDiscovery(signIn *auth.Service, log zerolog.Logger) *discovery.Service {
	dir, err := discovery.DefaultDir()
	if err != nil {
		log.Error().Err(err).Msg("model discovery")
		return nil
	}
	hidden := &discovery.HiddenQuery{SidecarPath: sidecarPath(), Dir: dir, Executable: installedClaude, Logger: log}
	svc := discovery.New(discovery.Options{Discover: hidden.Discover, Logger: log, Account: func() discovery.Account {
		if signIn == nil {
			return discovery.Account{}
		}
		return discovery.AccountOf(signIn.State(), signIn.Paths().Credentials)
	}})
	if signIn != nil {
		updates, _ := signIn.Subscribe() // closed by signIn.Close
		go svc.FollowAuth(updates)
	}
	return svc
}

// installedClaude is the claude a discovery runs: only one already there (discovery never downloads).
func installedClaude(ctx context.Context) (string, error) {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err != nil {
		return "", fmt.Errorf("claude is not installed yet: %w", err)
	}
	return sel.Path, nil
}

// listModels answers the console's listModels: the signed-in account's models.
func (h *hostServices) listModels(ctx context.Context) (console.ModelList, error) {
	if h.models == nil {
		return console.ModelList{}, errors.New("model discovery is not available: Baton has no data folder")
	}
	return h.models.List(ctx)
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
	if h.models != nil {
		h.models.Close()
	}
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
