package sidecar

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRuntimeEnvAddsOptionsThePersonDidNotSet(t *testing.T) {
	require.Equal(t, []string{"PATH=/bin", "BUN_JSC_useFTLJIT=0", "BATON_SIDECAR_ONLY_ENV=BUN_JSC_useFTLJIT"},
		runtimeEnv([]string{"PATH=/bin"}))
	// Theirs stays and is not named, so it reaches claude too; a stale list from outside is dropped.
	require.Equal(t, []string{"BUN_JSC_useFTLJIT=1"},
		runtimeEnv([]string{"BUN_JSC_useFTLJIT=1", "BATON_SIDECAR_ONLY_ENV=PATH"}))
	// One sidecar's own options (the index's) are added the same way, and the person's setting still wins.
	require.Equal(t, []string{"PATH=/bin", "BUN_JSC_x=3", "BUN_JSC_useFTLJIT=0", "BATON_SIDECAR_INDEX=1", "BATON_SIDECAR_ONLY_ENV=BUN_JSC_useFTLJIT,BATON_SIDECAR_INDEX"},
		runtimeEnv([]string{"PATH=/bin", "BUN_JSC_x=3"}, "BUN_JSC_x=1", "BATON_SIDECAR_INDEX=1"))
	t.Setenv("BATON_RUNTIMEENV_TEST", "x")
	require.Contains(t, runtimeEnv(nil), "BATON_RUNTIMEENV_TEST=x", "nil inherits Baton's environment")
}
