package cli

import (
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/stretchr/testify/assert"
)

// The progress line says how far, in bytes, while the index builds, and nothing once it is ready or failed.
func TestIndexLineText(t *testing.T) {
	s := console.IndexState{State: console.IndexStatusBuilding, FilesDone: 48, FilesTotal: 120, BytesDone: 48e6, BytesTotal: 120e6}
	assert.Equal(t, "Indexing transcripts: 40 % (48 MB of 120 MB)", indexLineText(s))
	s.State, s.Reason = console.IndexStatusRebuilding, console.IndexRebuildReasonMapper
	assert.Equal(t, "Rebuilding the transcript index: 40 % (48 MB of 120 MB)", indexLineText(s))
	assert.Equal(t, "Indexing transcripts: 50 % (2 kB of 3 kB)",
		indexLineText(console.IndexState{State: console.IndexStatusBuilding, BytesDone: 1500, BytesTotal: 3000}))
	assert.Equal(t, "Indexing transcripts…", indexLineText(console.IndexState{State: console.IndexStatusBuilding}))
	for _, st := range []console.IndexStatus{console.IndexStatusUnknown, console.IndexStatusReady, console.IndexStatusFailed} {
		assert.Empty(t, indexLineText(console.IndexState{State: st, BytesTotal: 10}))
	}
}
