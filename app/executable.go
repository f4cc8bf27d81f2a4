package app

import (
	"context"
	"os/exec"
)

// claudeFallback is the claude path handed to sidecars when neither CLAUDE_CODE_EXECUTABLE nor the SDK's own
// package decides (see the selection rule in app/protocol/PROTOCOL.md).
func claudeFallback(ctx context.Context) (string, error) {
	if p, err := exec.LookPath("claude"); err == nil {
		return p, nil
	}
	return "", nil
}
