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
	sel, err := provision.Select(ctx, provision.SelectOptions{})
	if err == nil {
		if sel.Warning != "" {
			r.log.Warn().Str("path", sel.Path).Str("source", sel.Source).Msg(sel.Warning)
		}
		return sel.Path, nil
	}
	var none *provision.NoExecutableError
	if !errors.As(err, &none) {
		return "", err
	}
	// One provisioning at a time in this process; provision itself also locks across processes.
	r.mu.Lock()
	defer r.mu.Unlock()
	log := r.log
	res, err := provision.New(provision.Options{Logger: &log}).Ensure(ctx, r.onProgress)
	if err != nil {
		return "", fmt.Errorf("install the claude executable: %w", err)
	}
	return res.Path, nil
}

// progressLines reports provisioning on a terminal's stderr, a line every few seconds, for headless commands.
func progressLines(w io.Writer) func(provision.Progress) {
	var last time.Time
	return func(p provision.Progress) {
		if p.Total <= 0 || time.Since(last) < 2*time.Second && p.Bytes < p.Total {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "baton: installing claude from %s: %d%% (%.0f of %.0f MB)\n", p.Source,
			p.Bytes*100/p.Total, float64(p.Bytes)/1e6, float64(p.Total)/1e6)
	}
}
