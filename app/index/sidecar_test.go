package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// The session list comes from the real sidecar's list_sessions over a transcript in Claude Code's own format, read
// once into the index and then served from it.
func TestSessionListFromTheRealSidecar(t *testing.T) {
	config := t.TempDir()
	projects := filepath.Join(config, "projects")
	cwd := t.TempDir()
	line := `{"type":"user","uuid":"7d3c1e2a-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"` + sessA +
		`","cwd":"` + cwd + `","gitBranch":"main","message":{"role":"user","content":"Rename the **widget** module"},` +
		`"timestamp":"2026-12-02T01:57:59.163Z","isSidechain":false,"userType":"external","version":"2.1.0"}` + "\n"
	path := filepath.Join(projects, "-tmp-project", sessA+".jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(line), 0o600))

	m := NewSidecarMapper(sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)})
	t.Cleanup(m.Release)
	ix, err := Open(context.Background(), Options{Dir: t.TempDir(), ProjectsDir: projects, Mapper: m, Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })

	list, err := ix.Sessions(context.Background(), "", 0)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, sessA, list[0].Session)
	require.Equal(t, "Rename the widget module", list[0].Title, "titled by the sidecar, as before the index")
	require.Equal(t, "main", list[0].GitBranch)

	m.Release() // a second listing of unchanged files needs no sidecar
	ix.opts.Mapper = failingMapper{}
	again, err := ix.Sessions(context.Background(), "", 0)
	require.NoError(t, err)
	require.Equal(t, list, again)
}

// failingMapper fails every call: the index must not need it.
type failingMapper struct{}

var errNoMapper = errors.New("no mapper here")

func (failingMapper) Open(context.Context, protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	return protocol.TranscriptOpenReply{}, errNoMapper
}
func (failingMapper) Next(context.Context, protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error) {
	return protocol.TranscriptNextReply{}, errNoMapper
}
func (failingMapper) Close(context.Context, string) error { return errNoMapper }
func (failingMapper) ListSessions(context.Context, string) ([]protocol.SessionInfo, error) {
	return nil, errNoMapper
}
func (failingMapper) Release() {}

// A sidecar without transcript jobs answers bad_request to them: the first read says so, and later reads fail at
// once without asking it again (the host then reads the transcript as before the index).
func TestASidecarWithoutTranscriptJobsIsAskedOnce(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 3), false)
	m := &noJobsMapper{}
	ix, err := Open(context.Background(), Options{Dir: f.data, ProjectsDir: f.projects, Mapper: m, Version: "new", Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	for range 3 {
		_, err := ix.History(context.Background(), sessA, "", nil, 0)
		var body *protocol.ErrorBody
		require.ErrorAs(t, err, &body)
	}
	require.Equal(t, 1, m.opens)
}

// noJobsMapper is a sidecar of before transcript jobs, as far as the index sees it.
type noJobsMapper struct {
	failingMapper
	opens int
}

func (m *noJobsMapper) Open(context.Context, protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	m.opens++
	return protocol.TranscriptOpenReply{}, &protocol.ErrorBody{Code: activity.ErrorCodeBadRequest, Message: "transcript_open is not available in this sidecar yet"}
}

// Once the index is up to date the mapper's sidecar ends after a quiet while (IdleRelease; the test runs the
// release itself instead of waiting), never while a job is open, and the next job starts a sidecar again.
func TestTheMapperSidecarEndsWhenIdleAndComesBack(t *testing.T) {
	config := t.TempDir()
	projects := filepath.Join(config, "projects")
	path := filepath.Join(projects, "-tmp-project", sessA+".jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	line := `{"type":"user","uuid":"7d3c1e2a-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"` + sessA +
		`","cwd":"/tmp/project","message":{"role":"user","content":"hello"},"timestamp":"2026-12-02T01:57:59.163Z"}` + "\n"
	require.NoError(t, os.WriteFile(path, []byte(line), 0o600))

	m := NewSidecarMapper(sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)})
	t.Cleanup(m.Release)
	var scheduled []func()
	m.schedule = func(d time.Duration, f func()) func() bool {
		require.Equal(t, IdleRelease, d)
		scheduled = append(scheduled, f)
		return func() bool { return true }
	}
	ctx := context.Background()

	job, err := m.Open(ctx, protocol.TranscriptOpenRequest{Session: sessA, File: path})
	require.NoError(t, err)
	_, err = m.Next(ctx, protocol.TranscriptNextRequest{Job: job.Job, MaxEvents: 100})
	require.NoError(t, err)
	require.Empty(t, scheduled, "no release is scheduled while a job is open")
	first := m.client
	require.NoError(t, m.Close(ctx, job.Job))
	require.Len(t, scheduled, 1, "the last job's close schedules the release")

	scheduled[0]()
	select {
	case <-first.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the idle sidecar did not end")
	}
	require.Nil(t, m.client)

	list, err := m.ListSessions(ctx, "")
	require.NoError(t, err, "the next call starts a sidecar again")
	require.Len(t, list, 1)
	require.NotSame(t, first, m.client)
}
