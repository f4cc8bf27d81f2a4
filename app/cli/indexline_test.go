package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The progress line says how far, in bytes, while the index maps, and nothing once it is ready or failed.
func TestIndexLineText(t *testing.T) {
	s := IndexProgress{Active: true, BytesDone: 48e6, BytesTotal: 120e6}
	assert.Equal(t, "Indexing transcripts: 40 % (48 MB of 120 MB)", indexLineText(s))
	s.Rebuilding = true
	assert.Equal(t, "Rebuilding the transcript index: 40 % (48 MB of 120 MB)", indexLineText(s))
	assert.Equal(t, "Indexing transcripts: 50 % (2 kB of 3 kB)", indexLineText(IndexProgress{Active: true, BytesDone: 1500, BytesTotal: 3000}))
	assert.Equal(t, "Indexing transcripts…", indexLineText(IndexProgress{Active: true}))
	assert.Empty(t, indexLineText(IndexProgress{BytesTotal: 10}))
}
