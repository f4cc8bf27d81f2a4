package app

import (
	"context"
	"errors"

	"github.com/baton-console/baton/app/terminal"
)

// terminalsStep runs the console's terminals; closing it ends every shell, sign-in and TUI Baton started.
func terminalsStep() hostStep {
	return hostStep{name: "terminals",
		open: func(_ context.Context, h *Host) error {
			h.terminals = terminal.New(terminal.Options{Logger: h.log})
			return nil
		},
		close: func(h *Host) { h.terminals.Shutdown() },
	}
}

// claudeExecutable is the provisioned claude, for the sign-in and Claude Code's TUI in a terminal.
func (h *Host) claudeExecutable() (string, error) {
	ctx := context.Background()
	if h.provision != nil {
		ctx = h.provision.ctx
	}
	exe, _ := selectedClaude(ctx)
	if exe == "" {
		return "", errors.New("claude is not installed yet; wait for the installation to finish")
	}
	return exe, nil
}
