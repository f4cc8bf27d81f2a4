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
	onReady func() // after a run finds claude: a fresh install can now answer a sign-in probe
}

func newProvisioner(state *console.HostState, log zerolog.Logger) *provisioner {
	ctx, cancel := context.WithCancel(context.Background())
	p := &provisioner{state: state, log: log, ctx: ctx, cancel: cancel}
	p.resolver = &claudeResolver{log: log, onProgress: p.onProgress}
	return p
}

// afterReady sets (nil: clears) what runs when a run finds claude.
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

func (p *provisioner) runOnce() {
	p.state.SetProvision(console.ProvisionState{State: "checking"})
	path, err := p.resolver.resolve(p.ctx)
	if err != nil {
		msg, hints := splitProvisionError(err)
		p.state.SetProvision(console.ProvisionState{State: "failed", Message: msg, Hints: hints})
		p.log.Warn().Err(err).Msg("provisioning failed")
		return
	}
	st := console.ProvisionState{State: "ready", Path: path}
	if sel, err := provision.Select(p.ctx, provision.SelectOptions{}); err == nil {
		st.Version, st.Source = sel.Version, sel.Source
	}
	p.state.SetProvision(st)
	p.mu.Lock()
	ready := p.onReady
	p.mu.Unlock()
	if ready != nil {
		go ready()
	}
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
