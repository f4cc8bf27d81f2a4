package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// indexUpdates is a stand-in for the host's index state: the updates a test sends.
type indexUpdates chan IndexProgress

func (u indexUpdates) SubscribeIndex() (<-chan IndexProgress, func()) { return u, func() {} }

// While a command waits for the index, a terminal's stderr gets one line drawn in place and cleared at the end;
// stderr that is not a terminal gets nothing.
func TestTheIndexLineIsDrawnWhileACommandWaitsAndClearedAfter(t *testing.T) {
	for _, tty := range []bool{true, false} {
		updates := make(indexUpdates, 4)
		var stderr strings.Builder
		stop := watchIndex(Env{StderrIsTTY: tty, Index: updates}, &stderr)
		updates <- IndexProgress{Active: true, BytesDone: 48e6, BytesTotal: 120e6}
		stop() // what still waits is shown before the line is cleared
		if !tty {
			require.Empty(t, stderr.String())
			continue
		}
		require.Equal(t, "\r\x1b[KIndexing transcripts: 40 % (48 MB of 120 MB)\r\x1b[K", stderr.String())
	}
}
