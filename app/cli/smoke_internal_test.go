package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// The smoke recognises the sidecar's test driver by the executable name it reports; the two sides must agree.
func TestTestDriverExecutableMatchesTheSidecar(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "sidecar", "src", "driver", "testDriver.ts"))
	require.NoError(t, err)
	m := regexp.MustCompile(`TEST_DRIVER_EXECUTABLE\s*=\s*'([^']*)'`).FindSubmatch(src)
	require.NotNil(t, m, "TEST_DRIVER_EXECUTABLE not found in testDriver.ts")
	require.Equal(t, testDriverExecutable, string(m[1]))
}
