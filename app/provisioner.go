package app

import (
	"context"
	"strings"
	"sync"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/provision"
	"github.com/rs/zerolog"
)

// provisioner makes sure the claude executable is there for the console, installing it when needed, and shows
// each run in the console's HostState. Its context bounds the runs and what they start; close cancels it.
type provisioner struct {
	state    *console.HostState
	resolver *claudeResolver
	log      zerolog.Logger
	ctx      context.Context
	cancel   context.CancelFunc

	mu      sync.Mutex
	running bool
	onReady func() // after a run installed claude: the sign-in probe, which found none before, can now answer
}

func newProvisioner(state *console.HostState, log zerolog.Logger) *provisioner {
	ctx, cancel := context.WithCancel(context.Background())
	p := &provisioner{state: state, log: log, ctx: ctx, cancel: cancel}
	p.resolver = &claudeResolver{log: log, onProgress: p.onProgress}
	return p
}

// afterReady sets (nil: clears) what runs when a run had to install claude. A run that found it installed needs
// nothing more: the sign-in probe finds it the same way (a second probe at every start cost a claude start).
func (p *provisioner) afterReady(f func()) {
	p.mu.Lock()
	p.onReady = f
	p.mu.Unlock()
}

// run starts a provisioning run unless one is running.
func (p *provisioner) run() {
	p.mu.Lock()
	if p.running {
		p.mu.Unlock()
		return
	}
	p.running = true
	p.mu.Unlock()
	go func() {
		defer func() {
			p.mu.Lock()
			p.running = false
			p.mu.Unlock()
		}()
		p.runOnce()
	}()
}

// runOnce is one provisioning run; it says whether it handed the run's end to afterReady's function.
func (p *provisioner) runOnce() (readied bool) {
	p.state.SetProvision(console.ProvisionState{State: "checking"})
	path, installed, err := p.resolver.resolveInstalling(p.ctx)
	if err != nil {
		msg, hints := splitProvisionError(err)
		p.state.SetProvision(console.ProvisionState{State: "failed", Message: msg, Hints: hints})
		p.log.Warn().Err(err).Msg("provisioning failed")
		return false
	}
	st := console.ProvisionState{State: "ready", Path: path}
	if sel, err := provision.Select(p.ctx, provision.SelectOptions{}); err == nil {
		st.Version, st.Source = sel.Version, sel.Source
	}
	p.state.SetProvision(st)
	p.mu.Lock()
	ready := p.onReady
	p.mu.Unlock()
	if ready == nil || !installed {
		return false
	}
	go ready()
	return true
}

func (p *provisioner) onProgress(pr provision.Progress) {
	p.state.SetProvision(console.ProvisionState{State: console.ProvisionStatusDownloading, Bytes: pr.Bytes,
		Total: pr.Total, Rate: pr.Rate, Source: pr.Source, Message: pr.Message})
}

func (p *provisioner) close() { p.cancel() }

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
