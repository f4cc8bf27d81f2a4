//go:build !windows

package terminal

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPasswdShell(t *testing.T) {
	require.Equal(t, "", passwdShell("/nonexistent/passwd"))
}
