package serve_test

import (
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/stretchr/testify/require"
)

// Over the WebSocket, starting a session in a folder that is not there is answered bad_request with the
// message the console shows, not internal.
func TestStartingInAMissingFolderIsABadRequestOverTheWebSocket(t *testing.T) {
	s := startServed(t)
	c := dial(t, s)
	missing := filepath.Join(s.project, "gone")
	e := c.call("startSession", map[string]any{"cwd": missing}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeBadRequest, e.Code)
	require.Equal(t, "the folder "+missing+" does not exist; choose an existing project folder", e.Message)
}
