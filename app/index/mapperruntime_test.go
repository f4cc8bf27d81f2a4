package index

import (
	"testing"

	"github.com/baton-console/baton/app/sidecar"
	"github.com/stretchr/testify/require"
)

// The mapper's own sidecar runs as the index's (it lets its pages go before its first job) with the heap growth
// that keeps a build under issue 26's RSS bound; the caller's config is left as it was.
func TestMapperSidecarRunsWithTheIndexRuntime(t *testing.T) {
	theirs := make([]string, 1, 4)
	theirs[0] = "BUN_JSC_x=1"
	m := NewSidecarMapper(sidecar.Config{Runtime: theirs})
	require.Equal(t, []string{"BUN_JSC_x=1", "BATON_SIDECAR_INDEX=1", "BUN_JSC_heapGrowthMaxIncrease=1"}, m.cfg.Runtime)
	require.Equal(t, []string{"BUN_JSC_x=1"}, theirs[:1:1])
	require.Equal(t, []string{"", "", ""}, theirs[1:4], "nothing was written into the caller's spare capacity")
}
