package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/protocol"
	"github.com/stretchr/testify/require"
)

func (p *progressLog) all() []Progress {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Progress(nil), p.reports...)
}

// indexing are the reports made while the index worked.
func (p *progressLog) indexing() []Progress {
	var out []Progress
	for _, pr := range p.all() {
		if pr.Indexing {
			out = append(out, pr)
		}
	}
	return out
}

// A build that finds nothing to map still says the index is built, so the console can say it is ready.
func TestABuildWithNothingToDoReportsBuilt(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 5), false)
	ix := f.open(newStandIn("v1", f.projects))
	ix.Build()
	require.True(t, f.progress.waitIdle(t).Built)
	require.NoError(t, ix.Close())

	f.progress = &progressLog{signal: make(chan struct{}, 1)}
	ix = f.open(newStandIn("v1", f.projects))
	ix.Build()
	done := f.progress.waitIdle(t)
	require.True(t, done.Built, "the scan finished")
	require.Empty(t, f.progress.indexing(), "nothing was mapped")
}

// A new mapper maps every session again, and the progress says why; the idle report after it no longer does.
func TestProgressSaysTheMapperChanged(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 5), false)
	f.write(f.path("q", sessB), lines("b", 0, 6), false)
	ix := f.open(newStandIn("v1", f.projects))
	ix.Build()
	f.progress.waitIdle(t)
	require.Empty(t, f.progress.all()[0].Rebuild, "a first build is no rebuild")
	require.NoError(t, ix.Close())

	f.progress = &progressLog{signal: make(chan struct{}, 1)}
	ix = f.open(newStandIn("v2", f.projects))
	ix.Build()
	done := f.progress.waitIdle(t)
	work := f.progress.indexing()
	require.NotEmpty(t, work)
	require.Equal(t, RebuildMapper, work[len(work)-1].Rebuild)
	require.Equal(t, 2, done.FilesDone)
	require.Empty(t, done.Rebuild)
	require.True(t, done.Built)
}

// An index that was unusable is set aside, and the build of the new one says it is a recovery.
func TestProgressSaysTheIndexWasRecovered(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 5), false)
	require.NoError(t, os.MkdirAll(f.data, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(f.data, FileName), []byte(strings.Repeat("not a database ", 500)), 0o600))
	ix := f.open(newStandIn("v1", f.projects))
	ix.Build()
	f.progress.waitIdle(t)
	work := f.progress.indexing()
	require.NotEmpty(t, work)
	for _, pr := range work {
		require.Equal(t, RebuildRecovered, pr.Rebuild)
	}
}

// A session a reader waits for is named while it is mapped ahead of the rest.
func TestProgressNamesTheSessionAReaderWaitsFor(t *testing.T) {
	f := newFixture(t)
	a := lines("a", 0, 5)
	f.write(f.path("p", sessA), a, false)
	ix := f.open(newStandIn("v1", f.projects))
	require.Equal(t, want(a, "v1"), history(t, ix, sessA))
	work := f.progress.indexing()
	require.NotEmpty(t, work)
	require.Equal(t, sessA, work[0].First)
	require.Equal(t, 1, work[0].FilesTotal)
}

// brokenMapper cannot start (a sidecar that will not run): every job fails.
type brokenMapper struct{ *standInMapper }

func (brokenMapper) Open(context.Context, protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	return protocol.TranscriptOpenReply{}, errors.New("start the sidecar that maps transcripts: exec format error")
}

// A build that cannot map says why, so the console can show it.
func TestProgressSaysWhyTheBuildFailed(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 5), false)
	ix := f.open(brokenMapper{newStandIn("v1", f.projects)})
	ix.Build()
	done := f.progress.waitIdle(t)
	require.Contains(t, done.Failed, "exec format error")
	require.False(t, done.Indexing)
	require.False(t, done.Built, "a failed scan built nothing")
}
