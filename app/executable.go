package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/baton-console/baton/provision"
	"github.com/rs/zerolog"
)

// claudeResolver picks the claude executable a session runs (provision.Select: CLAUDE_CODE_EXECUTABLE, the SDK's
// own package in a dev tree, the provisioned binary, a matching claude on PATH). When there is none it provisions
// the pinned one first, reporting progress, so a session started before provisioning finished waits for it.
type claudeResolver struct {
	mu         sync.Mutex
	log        zerolog.Logger
	onProgress func(provision.Progress)
}

func (r *claudeResolver) resolve(ctx context.Context) (string, error) {
	path, _, err := r.resolveInstalling(ctx)
	return path, err
}

// resolveInstalling is resolve, saying whether claude had to be installed (it was not there when asked).
func (r *claudeResolver) resolveInstalling(ctx context.Context) (path string, installed bool, err error) {
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err == nil {
		if sel.Warning != "" {
			r.log.Warn().Str("path", sel.Path).Str("source", sel.Source).Msg(sel.Warning)
		}
		return sel.Path, false, nil
	}
	var none *provision.NoExecutableError
	if !errors.As(err, &none) {
		return "", false, err
	}
	// One provisioning at a time in this process; provision itself also locks across processes.
	r.mu.Lock()
	defer r.mu.Unlock()
	log := r.log
	res, err := provision.New(provision.Options{Logger: &log}).Ensure(ctx, r.onProgress)
	if err != nil {
		return "", false, fmt.Errorf("install the claude executable: %w", err)
	}
	return res.Path, true, nil
}

// progressLines reports provisioning on stderr for headless commands: a line when a phase starts, and at most
// every few seconds while bytes move.
func progressLines(w io.Writer) func(provision.Progress) {
	var last time.Time
	var phase provision.Phase
	return func(p provision.Progress) {
		changed := p.Phase != phase
		phase = p.Phase
		switch p.Phase {
		case provision.PhaseDownloading, provision.PhaseUnpacking:
			if !changed && time.Since(last) < 3*time.Second {
				return
			}
			last = time.Now()
			verb := map[provision.Phase]string{provision.PhaseDownloading: "downloading", provision.PhaseUnpacking: "unpacking"}[p.Phase]
			if p.Total > 0 {
				fmt.Fprintf(w, "baton: installing claude: %s from %s, %d%% of %.0f MB\n", verb, p.Source, p.Bytes*100/p.Total, float64(p.Total)/1e6)
			} else {
				fmt.Fprintf(w, "baton: installing claude: %s from %s\n", verb, p.Source)
			}
		case provision.PhaseRetrying, provision.PhaseFallback, provision.PhaseWaiting:
			if changed && p.Message != "" {
				fmt.Fprintf(w, "baton: installing claude: %s\n", p.Message)
			}
		case provision.PhaseDone:
			fmt.Fprintln(w, "baton: claude is installed")
		case provision.PhaseInstalling:
			// A moment between unpacking and done: no line of its own.
		}
	}
}
