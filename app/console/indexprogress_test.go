package console_test

import (
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/session"
	"github.com/stretchr/testify/require"
)

// The snapshot says how far the index of stored sessions is, as the host last recorded it.
func TestSnapshotCarriesTheIndexProgress(t *testing.T) {
	host := console.NewHostState()
	api := console.New(console.Options{Sessions: session.NewManager(session.Config{}), Host: host})
	t.Cleanup(func() { console.Release(api) })
	host.SetIndex(console.IndexProgress{Indexing: true, FilesDone: 3, FilesTotal: 10, BytesDone: 100, BytesTotal: 4000})
	snap, err := api.Snapshot(console.Empty{})
	require.NoError(t, err)
	require.Equal(t, &console.IndexProgress{Indexing: true, FilesDone: 3, FilesTotal: 10, BytesDone: 100, BytesTotal: 4000}, snap.Index)
}
