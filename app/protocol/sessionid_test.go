package protocol_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/protocol"
)

// The host's session id rule is the sidecar's: the same shared cases pass and fail on both sides
// (sidecar/test/protocol/sessionIds.test.ts reads the same file).
func TestSessionIDRuleMatchesTheSharedCases(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "sidecar", "testdata", "protocol", "session-ids.json"))
	require.NoError(t, err)
	var cases struct{ Valid, Invalid []string }
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases.Valid)
	require.NotEmpty(t, cases.Invalid)
	for _, id := range cases.Valid {
		assert.True(t, protocol.ValidSessionID(id), "%q is a session id", id)
	}
	for _, id := range cases.Invalid {
		assert.False(t, protocol.ValidSessionID(id), "%q is not a session id", id)
	}
}
