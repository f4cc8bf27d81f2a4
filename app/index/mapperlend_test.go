package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/stretchr/testify/require"
)

// A short job, and one folder's session list, run in the sidecar a Lender lends (a live session's) while the
// mapper's own is not running, so a turn's appends start no second sidecar; the pages are those the mapper's own sidecar gives. A lent sidecar that
// has ended, or a long job, runs in the mapper's own.
func TestShortJobsRunInALentSidecar(t *testing.T) {
	config := t.TempDir()
	path := filepath.Join(config, "projects", "-tmp-project", sessA+".jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	line := `{"type":"user","uuid":"7d3c1e2a-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"` + sessA +
		`","cwd":"/tmp/project","message":{"role":"user","content":"hello"},"timestamp":"2026-12-02T01:57:59.163Z"}` + "\n"
	require.NoError(t, os.WriteFile(path, []byte(line), 0o600))
	cfg := sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)}
	ctx := context.Background()
	lent := startLent(t, cfg)

	m := NewSidecarMapper(cfg)
	t.Cleanup(m.Release)
	var asked []string
	m.LendWith(func(session string) *sidecar.Client {
		asked = append(asked, session)
		return lent
	})
	viaLent := readJob(t, m, path)
	require.Equal(t, []string{sessA}, asked, "the session's own sidecar is asked for")
	require.Nil(t, m.client, "no sidecar of the mapper's own was started")
	require.Empty(t, m.lent, "the job was closed in the lent sidecar")
	list, err := m.ListSessions(ctx, "/tmp/project")
	require.NoError(t, err)
	require.Len(t, list, 1, "one folder's list is read in the lent sidecar too")
	require.Nil(t, m.client)

	require.NoError(t, lent.Close(5*time.Second))
	viaOwn := readJob(t, m, path)
	require.NotNil(t, m.client, "a lent sidecar that ended: the mapper's own maps")
	require.Equal(t, viaOwn, viaLent)

	own := m.client
	again := startLent(t, cfg)
	m.LendWith(func(string) *sidecar.Client { return again })
	readJob(t, m, path)
	select { // the next short job was lent: the mapper's own, idle, ends at once
	case <-own.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the mapper's idle sidecar did not end once a lent one served")
	}

	big := filepath.Join(filepath.Dir(path), sessB+".jsonl")
	require.NoError(t, os.WriteFile(big, make([]byte, LendLimit+1), 0o600))
	asked = nil
	m.LendWith(func(session string) *sidecar.Client {
		asked = append(asked, session)
		return again
	})
	_, err = m.Open(ctx, protocol.TranscriptOpenRequest{Session: sessB, File: big})
	require.NoError(t, err)
	require.Empty(t, asked, "a long job is not lent out")
}

// readJob maps path in one job and returns its items.
func readJob(t *testing.T, m *SidecarMapper, path string) []protocol.TranscriptItem {
	t.Helper()
	ctx := context.Background()
	job, err := m.Open(ctx, protocol.TranscriptOpenRequest{Session: sessA, File: path})
	require.NoError(t, err)
	var items []protocol.TranscriptItem
	for {
		page, err := m.Next(ctx, protocol.TranscriptNextRequest{Job: job.Job, MaxEvents: 100})
		require.NoError(t, err)
		items = append(items, page.Items...)
		if page.Done {
			break
		}
	}
	require.NoError(t, m.Close(ctx, job.Job))
	require.NotEmpty(t, items)
	return items
}

// startLent starts a sidecar standing in for a running session's.
func startLent(t *testing.T, cfg sidecar.Config) *sidecar.Client {
	t.Helper()
	c, err := sidecar.Start(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close(5 * time.Second) })
	go func() {
		for range c.Events() {
		}
	}()
	return c
}
