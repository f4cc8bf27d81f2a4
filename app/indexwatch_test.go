package app

import (
	"testing"

	"github.com/baton-console/baton/app/cli"
	"github.com/baton-console/baton/app/console"
	"github.com/stretchr/testify/assert"
)

// The terminal's line shows how far while the index builds or rebuilds, and nothing when it is unknown, ready or failed.
func TestIndexProgressFromTheHostsState(t *testing.T) {
	s := console.IndexState{State: console.IndexStatusBuilding, FilesDone: 48, FilesTotal: 120, BytesDone: 48e6, BytesTotal: 120e6}
	assert.Equal(t, cli.IndexProgress{Active: true, BytesDone: 48e6, BytesTotal: 120e6}, indexProgress(s))
	s.State, s.Reason = console.IndexStatusRebuilding, console.IndexRebuildReasonMapper
	assert.Equal(t, cli.IndexProgress{Active: true, Rebuilding: true, BytesDone: 48e6, BytesTotal: 120e6}, indexProgress(s))
	for _, st := range []console.IndexStatus{console.IndexStatusUnknown, console.IndexStatusReady, console.IndexStatusFailed} {
		assert.False(t, indexProgress(console.IndexState{State: st, BytesTotal: 10}).Active, st)
	}
}
