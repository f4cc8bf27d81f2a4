package index

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// Every transcript of the corpus (sidecar/testdata/corpus: real CLI transcripts across versions) is served from
// the index exactly as the sidecar's history request serves it, and a rewind's message parent agrees. A resume or
// fork point (`at`) is the items up to the last one of that message; where the sidecar's own `at` differs it is
// logged. It skips where the corpus or the sidecar's transcript jobs are not there yet.
func TestCorpusHistoryFromTheIndexEqualsTheSidecars(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	var configs []string
	_ = filepath.WalkDir(filepath.Join(root, "sidecar", "testdata", "corpus"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "projects" {
			configs = append(configs, filepath.Dir(path))
		}
		return nil
	})
	if len(configs) == 0 {
		t.Skip("no corpus in sidecar/testdata/corpus yet (h/corpus)")
	}
	for _, src := range configs {
		config := t.TempDir()
		require.NoError(t, os.CopyFS(filepath.Join(config, "projects"), os.DirFS(filepath.Join(src, "projects"))))
		compareCorpus(t, config)
	}
}

func compareCorpus(t *testing.T, config string) {
	ctx := context.Background()
	cfg := sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)}
	c, err := sidecar.Start(ctx, cfg)
	require.NoError(t, err)
	go func() {
		for range c.Events() {
		}
	}()
	t.Cleanup(func() { _ = c.Close(5 * time.Second) })
	m := NewSidecarMapper(cfg)
	t.Cleanup(m.Release)
	ix, err := Open(ctx, Options{Dir: t.TempDir(), ProjectsDir: filepath.Join(config, "projects"), Mapper: m, Version: "test", Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	sessions, err := scanAll(filepath.Join(config, "projects"))
	require.NoError(t, err)
	for id := range sessions {
		var today protocol.HistoryReply
		require.NoError(t, c.Call(ctx, protocol.ReqHistory, protocol.HistoryRequest{Session: id}, &today))
		page, err := ix.History(ctx, id, "", nil, 0)
		if isBadRequest(err) {
			t.Skipf("this sidecar has no transcript jobs yet (%v)", err)
		}
		require.NoError(t, err, id)
		require.Equal(t, jsonLines(t, today.Events), jsonLines(t, page.Events), "session %s", id)
		comparePoints(t, c, ix, id, page)
	}
}

// comparePoints checks `at` and message parents at every prompt of a session.
func comparePoints(t *testing.T, c *sidecar.Client, ix *Index, id string, page Page) {
	ctx := context.Background()
	for _, raw := range page.Events {
		if !strings.Contains(string(raw), `"kind":"turn.started"`) {
			continue
		}
		uuid := eventUUID(t, raw)
		if uuid == "" {
			continue
		}
		var today protocol.HistoryReply
		require.NoError(t, c.Call(ctx, protocol.ReqHistory, protocol.HistoryRequest{Session: id, At: uuid}, &today))
		at, err := ix.History(ctx, id, uuid, nil, 0)
		require.NoError(t, err)
		if today.Total != at.Total {
			t.Logf("AT session %s at %s: sidecar %d events, index %d; sidecar's last: %s", id, uuid, today.Total, at.Total, lastKinds(today.Events, at.Total))
		}
		var parent protocol.MessageParentReply
		require.NoError(t, c.Call(ctx, protocol.ReqMessageParent, protocol.MessageParentRequest{Session: id, Message: uuid}, &parent))
		got, found, err := ix.MessageParent(ctx, id, uuid)
		require.NoError(t, err)
		// The sidecar's message_parent reads the SDK's chain, which misses prompts history now shows (before a
		// compaction, 1.0.x); where it finds one, the index agrees.
		if parent.Found {
			require.True(t, found, "session %s message %s", id, uuid)
			require.Equal(t, parent.Parent, got, "session %s message %s", id, uuid)
		}
	}
}

func lastKinds(events []json.RawMessage, from int) string {
	var kinds []string
	for i := max(0, min(from, len(events))-1); i < len(events) && len(kinds) < 6; i++ {
		var e struct{ Kind string }
		_ = json.Unmarshal(events[i], &e)
		kinds = append(kinds, e.Kind)
	}
	return strings.Join(kinds, ",")
}

// A corpus transcript written in two halves is indexed, then resumed from the stored point when the second half
// is appended, and ends as the sidecar's history of the whole file.
func TestCorpusAppendResumesToTheSidecarsHistory(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	srcs, _ := filepath.Glob(filepath.Join(root, "sidecar", "testdata", "corpus", "recorded", "projects", "*", "*.jsonl"))
	if len(srcs) == 0 {
		t.Skip("no corpus in sidecar/testdata/corpus yet (h/corpus)")
	}
	resumed := 0
	for _, src := range srcs {
		resumed += appendInHalves(t, src)
	}
	t.Logf("%d of %d appends continued from the resume point", resumed, len(srcs))
	require.Positive(t, resumed, "at least one append continued from a resume point")
}

// appendInHalves returns 1 when the second half was mapped from the resume point (not restarted).
func appendInHalves(t *testing.T, src string) int {
	ctx := context.Background()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	config := t.TempDir()
	id := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	path := filepath.Join(config, "projects", filepath.Base(filepath.Dir(src)), filepath.Base(src))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines[:len(lines)/2], "")), 0o600))
	cfg := sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)}
	rec := &recordingMapper{Mapper: NewSidecarMapper(cfg)}
	t.Cleanup(rec.Release)
	ix, err := Open(ctx, Options{Dir: t.TempDir(), ProjectsDir: filepath.Join(config, "projects"), Mapper: rec, Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	if _, err := ix.History(ctx, id, "", nil, 0); isBadRequest(err) {
		t.Skipf("this sidecar has no transcript jobs yet (%v)", err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(strings.Join(lines[len(lines)/2:], ""))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	later := time.Now().Add(time.Hour)
	require.NoError(t, os.Chtimes(path, later, later))
	page, err := ix.History(ctx, id, "", nil, 0)
	require.NoError(t, err)

	c, err := sidecar.Start(ctx, cfg)
	require.NoError(t, err)
	go func() {
		for range c.Events() {
		}
	}()
	defer func() { _ = c.Close(5 * time.Second) }()
	var today protocol.HistoryReply
	require.NoError(t, c.Call(ctx, protocol.ReqHistory, protocol.HistoryRequest{Session: id}, &today))
	require.Equal(t, jsonLines(t, today.Events), jsonLines(t, page.Events), "session %s", id)
	if last := rec.last(); last.req.Resume != nil && !last.rep.Restarted {
		return 1
	}
	return 0
}

// recordingMapper is the real mapper, remembering the last job it opened.
type recordingMapper struct {
	Mapper
	mu   sync.Mutex
	open openCall
}

type openCall struct {
	req protocol.TranscriptOpenRequest
	rep protocol.TranscriptOpenReply
}

func (m *recordingMapper) Open(ctx context.Context, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	rep, err := m.Mapper.Open(ctx, req)
	m.mu.Lock()
	m.open.req, m.open.rep = req, rep
	m.mu.Unlock()
	return rep, err
}

func (m *recordingMapper) last() openCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.open
}
