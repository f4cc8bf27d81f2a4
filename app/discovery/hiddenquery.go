package discovery

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/baton-console/baton/provision/platform"
	"github.com/rs/zerolog"
)

// gatePurpose names discovery in other credential users' messages.
const gatePurpose = "model discovery"

// DefaultDir is Baton's own discovery folder, <data dir>/discovery: neutral ground outside any project, so no
// project's settings narrow the list.
func DefaultDir() (string, error) {
	data, err := platform.DataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(data, "discovery"), nil
}

// HiddenQuery discovers models through a short-lived sidecar: `discover_models` starts an SDK query whose input
// never yields a prompt, asks for its models and closes it.
type HiddenQuery struct {
	SidecarPath string
	// Env is the sidecar's whole environment, the one sessions get (nil: Baton's own).
	Env []string
	// Dir is the discovery folder (created when missing).
	Dir string
	// Executable returns the claude to run (the host's fallback, as for sessions). It must not download.
	Executable func(ctx context.Context) (string, error)
	// Gate serialises credential work (nil: auth.Acquire, the process-wide gate).
	Gate   func(ctx context.Context, purpose string) (release func(), err error)
	Logger zerolog.Logger
}

// Discover runs one hidden query. The credential gate is held only while the query starts (the sidecar answers
// as soon as the CLI reported its models), never while the sidecar process starts or winds down.
func (h *HiddenQuery) Discover(ctx context.Context) ([]activity.ModelEntry, error) {
	if h.Dir == "" {
		return nil, errors.New("no discovery folder configured")
	}
	if err := os.MkdirAll(h.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the discovery folder: %w", err)
	}
	exe := ""
	if h.Executable != nil {
		var err error
		if exe, err = h.Executable(ctx); err != nil {
			return nil, fmt.Errorf("find the claude executable: %w", err)
		}
	}
	env := h.Env
	if env == nil {
		env = os.Environ()
	}
	client, err := sidecar.Start(ctx, sidecar.Config{Path: h.SidecarPath, Env: env, Logger: h.Logger})
	if err != nil {
		return nil, err
	}
	defer func() { _ = client.Close(5 * time.Second) }()
	go func() {
		for range client.Events() { // a hidden query has no session and sends none; drained all the same
		}
	}()

	gate := h.Gate
	if gate == nil {
		gate = auth.Acquire
	}
	release, err := gate(ctx, gatePurpose)
	if err != nil {
		return nil, err
	}
	var rep protocol.DiscoverModelsReply
	err = client.Call(ctx, protocol.ReqDiscoverModels, protocol.DiscoverModelsRequest{Cwd: h.Dir, Executable: exe}, &rep)
	release()
	if err != nil {
		return nil, err
	}
	if rep.Models == nil {
		rep.Models = []activity.ModelEntry{}
	}
	return rep.Models, nil
}
