package app

import (
	"errors"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/index"
	"github.com/stretchr/testify/require"
)

// The index's progress reads as the console's typed state: building, rebuilding and why, ready, failed with what
// to do.
func TestIndexStateFromProgress(t *testing.T) {
	counts := index.Progress{Indexing: true, FilesDone: 48, FilesTotal: 120, BytesDone: 48e6, BytesTotal: 120e6, First: "s1"}
	require.Equal(t, console.IndexState{State: console.IndexStatusBuilding, FilesDone: 48, FilesTotal: 120, BytesDone: 48e6,
		BytesTotal: 120e6, First: "s1"}, indexState(counts, "/d/index.db"))

	counts.Rebuild = index.RebuildMapper
	s := indexState(counts, "/d/index.db")
	require.Equal(t, console.IndexStatusRebuilding, s.State)
	require.Equal(t, console.IndexRebuildReasonMapper, s.Reason)
	counts.Rebuild = index.RebuildRecovered
	require.Equal(t, console.IndexRebuildReasonRecovered, indexState(counts, "/d/index.db").Reason)

	require.Equal(t, console.IndexStatusReady, indexState(index.Progress{Built: true, FilesDone: 3, FilesTotal: 3}, "").State)
	require.Equal(t, console.IndexStatusUnknown, indexState(index.Progress{}, "").State, "no build yet")

	failed := indexState(index.Progress{Built: true, Failed: "ask the mapper its version: exec format error"}, "/d/index.db")
	require.Equal(t, console.IndexStatusFailed, failed.State)
	require.Contains(t, failed.Message, "exec format error")
	require.Contains(t, failed.Message, "start it again")
	require.Contains(t, failed.Message, "/d/index.db")

	open := indexOpenFailed(errors.New("disk I/O error"), "/d")
	require.Equal(t, console.IndexStatusFailed, open.State)
	require.Contains(t, open.Message, "disk I/O error")
	require.Contains(t, open.Message, "/d/index.db")
}
