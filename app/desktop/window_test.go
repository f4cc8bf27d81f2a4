package desktop

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// In the window a failed call reaches the page as the console's {code, message} (Wails marshals what
// ErrorFormatter returns), so a folder that is not there reads as bad_request there too, not as bare text. The
// window itself cannot open in this test; the formatter is what Run hands Wails.
func TestAFailedCallReachesThePageWithItsCode(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "gone")
	_, err := session.NewManager(session.Config{Logger: zerolog.Nop()}).Start(context.Background(),
		session.StartOptions{Cwd: missing})
	require.Error(t, err)
	raw, err := json.Marshal(FormatError(err))
	require.NoError(t, err)
	require.JSONEq(t, `{"code":"bad_request","message":"the folder `+missing+` does not exist; choose an existing project folder"}`, string(raw))
}
