package cli

import (
	"fmt"

	"github.com/baton-console/baton/provision"
)

// VersionText is what `baton --version` prints: Baton's own version (baked in at build time), the Agent SDK the
// sidecar was built with, and the claude version Baton provisions. Support asks for all three together because
// a problem is usually a mismatch between them.
func VersionText(bakedVersion string) string {
	m := provision.Pinned()
	return fmt.Sprintf("baton %s\nclaude-agent-sdk %s\nclaude %s (pinned)\n", bakedVersion, m.SDKVersion, m.Version)
}
