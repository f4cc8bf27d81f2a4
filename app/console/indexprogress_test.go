package console_test

import (
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/stretchr/testify/require"
)

// The host state keeps the index's latest progress for the console (the snapshot carries it once the console
// contract has the field).
func TestHostStateKeepsTheIndexProgress(t *testing.T) {
	host := console.NewHostState()
	require.Equal(t, console.IndexProgress{}, host.Index())
	p := console.IndexProgress{Indexing: true, FilesDone: 3, FilesTotal: 10, BytesDone: 100, BytesTotal: 4000}
	host.SetIndex(p)
	require.Equal(t, p, host.Index())
}
