package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/protocol"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

const (
	sessA = "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6a"
	sessB = "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	sessC = "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6c"
)

type fixture struct {
	t        *testing.T
	data     string
	projects string
	progress *progressLog
}

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	return &fixture{t: t, data: filepath.Join(dir, "data"), projects: filepath.Join(dir, "claude", "projects"), progress: &progressLog{signal: make(chan struct{}, 1)}}
}

// lines are transcript lines, each with a uuid; n from first.
func lines(prefix string, first, n int) []string {
	out := make([]string, 0, n)
	for i := first; i < first+n; i++ {
		out = append(out, fmt.Sprintf(`{"uuid":"%s-%d","title":"%s","cwd":"/work/%s","text":"line %d"}`, prefix, i, prefix, prefix, i))
	}
	return out
}

func (f *fixture) path(project, id string) string {
	return filepath.Join(f.projects, project, id+".jsonl")
}

func (f *fixture) write(path string, ls []string, appendTo bool) {
	f.t.Helper()
	require.NoError(f.t, os.MkdirAll(filepath.Dir(path), 0o700))
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendTo {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	file, err := os.OpenFile(path, flags, 0o600)
	require.NoError(f.t, err)
	_, err = file.WriteString(strings.Join(ls, "\n") + "\n")
	require.NoError(f.t, err)
	require.NoError(f.t, file.Close())
	// A later write in the same clock tick must still read as a change.
	bump := time.Now().Add(time.Duration(len(ls)) * time.Second)
	require.NoError(f.t, os.Chtimes(path, bump, bump))
}

func (f *fixture) open(m Mapper) *Index {
	f.t.Helper()
	ix, err := Open(context.Background(), Options{Dir: f.data, ProjectsDir: f.projects, Mapper: m, OnProgress: f.progress.add,
		PageEvents: 7, ChunkItems: 10, Logger: zerolog.Nop()})
	require.NoError(f.t, err)
	f.t.Cleanup(func() { _ = ix.Close() })
	return ix
}

// progressLog records every progress report.
type progressLog struct {
	mu      sync.Mutex
	reports []Progress
	signal  chan struct{}
}

func (p *progressLog) add(pr Progress) {
	p.mu.Lock()
	p.reports = append(p.reports, pr)
	p.mu.Unlock()
	select {
	case p.signal <- struct{}{}:
	default:
	}
}

func (p *progressLog) last() (Progress, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.reports) == 0 {
		return Progress{}, 0
	}
	return p.reports[len(p.reports)-1], len(p.reports)
}

// waitIdle waits for the report that says the build is done (a deadline only bounds a hang; it decides nothing).
func (p *progressLog) waitIdle(t *testing.T) Progress {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		if pr, n := p.last(); n > 0 && !pr.Indexing {
			return pr
		}
		select {
		case <-p.signal:
		case <-deadline:
			t.Fatal("the index never finished building")
		}
	}
}

func history(t *testing.T, ix *Index, session string) []string {
	t.Helper()
	page, err := ix.History(context.Background(), session, "", nil, 0)
	require.NoError(t, err)
	require.Equal(t, len(page.Events), page.Total)
	return texts(t, page.Events)
}

// texts are the transcript lines the stand-in's events carry.
func texts(t *testing.T, events []json.RawMessage) []string {
	out := make([]string, 0, len(events))
	for _, ev := range events {
		var e struct {
			Raw struct{ Line, Mapper string } `json:"raw"`
		}
		require.NoError(t, json.Unmarshal(ev, &e))
		out = append(out, e.Raw.Line+" @"+e.Raw.Mapper)
	}
	return out
}

func want(ls []string, mapper string) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, l+" @"+mapper)
	}
	return out
}

func TestBuildIndexesEveryTranscriptWithProgress(t *testing.T) {
	f := newFixture(t)
	a, b, c := lines("a", 0, 25), lines("b", 0, 3), lines("c", 0, 4)
	sub := lines("asub", 0, 2)
	f.write(f.path("-work-a", sessA), a, false)
	f.write(filepath.Join(f.projects, "-work-a", sessA, "subagents", "agent-1.jsonl"), sub, false)
	f.write(f.path("-work-b", sessB), b, false)
	f.write(f.path("-work-b", sessC), c, false)
	m := newStandIn("v1", f.projects)
	ix := f.open(m)
	ix.Build()
	done := f.progress.waitIdle(t)

	require.Equal(t, 4, done.FilesTotal, "three transcripts and a subagent's")
	require.Equal(t, done.FilesTotal, done.FilesDone)
	require.Equal(t, done.BytesTotal, done.BytesDone)
	require.Positive(t, done.BytesTotal)
	opens := len(m.openRequests())
	require.Equal(t, 4, opens, "the mapper's version asked, then one job per session")

	require.Equal(t, append(want(a, "v1"), want(sub, "v1")...), history(t, ix, sessA))
	require.Equal(t, want(b, "v1"), history(t, ix, sessB))
	require.Len(t, m.openRequests(), opens, "a session the index has is served without mapping it again")

	list, err := ix.Sessions(context.Background(), "", 0)
	require.NoError(t, err)
	require.Len(t, list, 3)
	one, err := ix.Sessions(context.Background(), "/work/a", 0)
	require.NoError(t, err)
	require.Len(t, one, 1)
	require.Equal(t, sessA, one[0].Session)
	require.Equal(t, "a", one[0].Title)
}

func TestPagesArePositionsOfTheTotal(t *testing.T) {
	f := newFixture(t)
	a := lines("a", 0, 30)
	f.write(f.path("p", sessA), a, false)
	ix := f.open(newStandIn("v1", f.projects))
	ctx := context.Background()

	newest, err := ix.History(ctx, sessA, "", nil, 12)
	require.NoError(t, err, "a session not indexed yet is indexed first, then served")
	require.Equal(t, 30, newest.Total)
	require.Equal(t, 18, newest.Start)
	require.Equal(t, want(a[18:], "v1"), texts(t, newest.Events))
	before := newest.Start
	older, err := ix.History(ctx, sessA, "", &before, 12)
	require.NoError(t, err)
	require.Equal(t, 6, older.Start)
	require.Equal(t, want(a[6:18], "v1"), texts(t, older.Events))

	at, err := ix.History(ctx, sessA, "a-9", nil, 0)
	require.NoError(t, err)
	require.Equal(t, 10, at.Total, "up to the item whose uuid is at")
	require.Equal(t, want(a[:10], "v1"), texts(t, at.Events))

	parent, found, err := ix.MessageParent(ctx, sessA, "a-9")
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "a-8", parent)
	parent, found, err = ix.MessageParent(ctx, sessA, "a-0")
	require.NoError(t, err)
	require.True(t, found)
	require.Empty(t, parent)
	_, found, err = ix.MessageParent(ctx, sessA, "nope")
	require.NoError(t, err)
	require.False(t, found)
}

func TestAppendResumesFromTheStoredPoint(t *testing.T) {
	f := newFixture(t)
	path := f.path("p", sessA)
	first, more := lines("a", 0, 12), lines("a", 12, 9)
	f.write(path, first, false)
	m := newStandIn("v1", f.projects)
	ix := f.open(m)
	require.Equal(t, want(first, "v1"), history(t, ix, sessA))
	size := len(strings.Join(first, "\n")) + 1

	f.write(path, more, true)
	require.Equal(t, want(append(first, more...), "v1"), history(t, ix, sessA))
	opens := m.openRequests()
	require.Len(t, opens, 2)
	require.NotNil(t, opens[1].Resume, "an append is read from where the last job stopped")
	require.Equal(t, size, opens[1].Resume.Offset)
}

func TestRewriteMapsTheSessionAgain(t *testing.T) {
	f := newFixture(t)
	path := f.path("p", sessA)
	f.write(path, lines("a", 0, 12), false)
	m := newStandIn("v1", f.projects)
	ix := f.open(m)
	history(t, ix, sessA)

	rewritten := lines("z", 0, 15) // longer, different from its first byte
	f.write(path, rewritten, false)
	require.Equal(t, want(rewritten, "v1"), history(t, ix, sessA))
	opens := m.openRequests()
	require.Len(t, opens, 2)
	require.Nil(t, opens[1].Resume, "a rewritten transcript is mapped from its start")
}

func TestRestartedJobReplacesTheItems(t *testing.T) {
	f := newFixture(t)
	path := f.path("p", sessA)
	head := []string{`{"uuid":"a-0","text":"` + strings.Repeat("x", 2*headBytes) + `"}`} // the head hash covers it alone
	f.write(path, append(head, lines("a", 1, 5)...), false)
	m := newStandIn("v1", f.projects)
	ix := f.open(m)
	history(t, ix, sessA)

	// The same first line, then other lines: the head matches, but the line before the resume point does not, so
	// the mapper restarts the job.
	changed := append(head, lines("b", 1, 8)...)
	f.write(path, changed, false)
	require.Equal(t, want(changed, "v1"), history(t, ix, sessA))
	opens := m.openRequests()
	require.Len(t, opens, 2)
	require.NotNil(t, opens[1].Resume)
}

func TestMapperVersionChangeRebuildsEverything(t *testing.T) {
	f := newFixture(t)
	a, b := lines("a", 0, 5), lines("b", 0, 6)
	f.write(f.path("p", sessA), a, false)
	f.write(f.path("q", sessB), b, false)
	ix := f.open(newStandIn("v1", f.projects))
	ix.Build()
	f.progress.waitIdle(t)
	require.NoError(t, ix.Close())

	f.progress = &progressLog{signal: make(chan struct{}, 1)}
	m2 := newStandIn("v2", f.projects)
	ix = f.open(m2)
	ix.Build() // at startup: the build asks the mapper its version
	f.progress.waitIdle(t)
	n := len(m2.openRequests())
	require.Equal(t, 3, n, "the version asked, then both sessions mapped again")
	require.Equal(t, want(a, "v2"), history(t, ix, sessA))
	require.Equal(t, want(b, "v2"), history(t, ix, sessB))
	require.Len(t, m2.openRequests(), n, "rebuilt in the background, not on the read")
}

func TestAnotherBatonVersionAsksTheMapperBeforeServing(t *testing.T) {
	f := newFixture(t)
	a := lines("a", 0, 5)
	f.write(f.path("p", sessA), a, false)
	ix := f.open(newStandIn("v1", f.projects))
	require.Equal(t, want(a, "v1"), history(t, ix, sessA))
	require.NoError(t, ix.Close())

	ix, err := Open(context.Background(), Options{Dir: f.data, ProjectsDir: f.projects, Mapper: newStandIn("v2", f.projects),
		Version: "next", Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	require.Equal(t, want(a, "v2"), history(t, ix, sessA), "served by the new mapper, without a build first")
}

func TestCorruptIndexIsMovedAsideAndRebuilt(t *testing.T) {
	f := newFixture(t)
	a := lines("a", 0, 5)
	f.write(f.path("p", sessA), a, false)
	require.NoError(t, os.MkdirAll(f.data, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(f.data, FileName), []byte(strings.Repeat("not a database ", 500)), 0o600))

	ix := f.open(newStandIn("v1", f.projects))
	require.Equal(t, want(a, "v1"), history(t, ix, sessA))
	aside, _ := filepath.Glob(filepath.Join(f.data, FileName+".corrupt-*"))
	require.Len(t, aside, 1)
}

// An index of the schema before this one (an items row per event, schema "3") is moved aside and rebuilt from the
// transcripts.
func TestIndexOfAnOlderSchemaIsRebuilt(t *testing.T) {
	f := newFixture(t)
	a := lines("a", 0, 5)
	f.write(f.path("p", sessA), a, false)
	require.NoError(t, os.MkdirAll(f.data, 0o700))
	old, err := sql.Open("sqlite", filepath.Join(f.data, FileName))
	require.NoError(t, err)
	_, err = old.Exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
		INSERT INTO meta VALUES('schema', '3');
		CREATE TABLE items (session TEXT NOT NULL, gen INTEGER NOT NULL, seq INTEGER NOT NULL,
			uuid TEXT NOT NULL DEFAULT '', event BLOB NOT NULL, PRIMARY KEY (session, gen, seq)) WITHOUT ROWID;`)
	require.NoError(t, err)
	require.NoError(t, old.Close())

	ix := f.open(newStandIn("v1", f.projects))
	require.Equal(t, want(a, "v1"), history(t, ix, sessA))
	aside, _ := filepath.Glob(filepath.Join(f.data, FileName+".corrupt-*"))
	require.Len(t, aside, 1)
}

func TestDeletedIndexIsRebuilt(t *testing.T) {
	f := newFixture(t)
	a := lines("a", 0, 5)
	f.write(f.path("p", sessA), a, false)
	ix := f.open(newStandIn("v1", f.projects))
	ix.Build()
	f.progress.waitIdle(t)
	require.NoError(t, ix.Close())
	for _, suffix := range []string{"", "-wal", "-shm"} {
		_ = os.Remove(filepath.Join(f.data, FileName+suffix))
	}

	f.progress = &progressLog{signal: make(chan struct{}, 1)}
	m := newStandIn("v1", f.projects)
	ix = f.open(m)
	ix.Build()
	done := f.progress.waitIdle(t)
	require.Equal(t, 1, done.FilesDone)
	require.Equal(t, want(a, "v1"), history(t, ix, sessA))
	require.Len(t, m.openRequests(), 2, "the version asked, then the session mapped")
}

func TestReadsDoNotWaitForTheWriter(t *testing.T) {
	f := newFixture(t)
	a, b := lines("a", 0, 5), lines("b", 0, 40)
	f.write(f.path("p", sessA), a, false)
	f.write(f.path("p", sessB), b, false)
	m := newStandIn("v1", f.projects)
	ix := f.open(m)
	require.Equal(t, want(a, "v1"), history(t, ix, sessA))
	require.Equal(t, want(b, "v1"), history(t, ix, sessB))

	// B is rewritten; its new mapping is held after three pages (two chunks committed).
	midway, release := make(chan struct{}), make(chan struct{})
	m.mu.Lock()
	m.gate = func(session string, page int) {
		if session == sessB && page == 3 {
			close(midway)
			<-release
		}
	}
	m.mu.Unlock()
	rewritten := lines("z", 0, 50)
	f.write(f.path("p", sessB), rewritten, false)
	ix.Touch(sessB)
	<-midway

	require.Equal(t, want(a, "v1"), history(t, ix, sessA), "another session is read while the writer is inserting")
	old, err := ix.readPage(context.Background(), sessB, "", nil, 0)
	require.NoError(t, err)
	require.Equal(t, want(b, "v1"), texts(t, old.Events), "the session being mapped again reads whole, as it was")
	close(release)
	require.Equal(t, want(rewritten, "v1"), history(t, ix, sessB))
}

func TestDeletedTranscriptLeavesTheIndex(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 3), false)
	f.write(f.path("p", sessB), lines("b", 0, 3), false)
	ix := f.open(newStandIn("v1", f.projects))
	list, err := ix.Sessions(context.Background(), "", 0)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.NoError(t, os.Remove(f.path("p", sessB)))
	list, err = ix.Sessions(context.Background(), "", 0)
	require.NoError(t, err)
	require.Len(t, list, 1)
	page, err := ix.History(context.Background(), sessB, "", nil, 0)
	require.NoError(t, err)
	require.Zero(t, page.Total)
}

// A subagent's file belongs to its session, in either layout: 2.1.x <session>/subagents/agent-*.jsonl and 2.0.x
// agent-*.jsonl beside the session, naming it in its lines. A change to one maps the session again, from its start.
func TestSubagentChangeMapsItsSessionAgain(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 4), false)
	beside := filepath.Join(f.projects, "p", "agent-1234abcd.jsonl")
	f.write(beside, []string{`{"uuid":"s-0","sessionId":"` + sessA + `"}`}, false)
	nested := filepath.Join(f.projects, "p", sessA, "subagents", "agent-1.jsonl")
	f.write(nested, lines("n", 0, 2), false)
	m := newStandIn("v1", f.projects)
	ix := f.open(m)
	ix.Build()
	done := f.progress.waitIdle(t)
	require.Equal(t, 3, done.FilesTotal, "the session's file and both subagents'")
	history(t, ix, sessA)
	opens := len(m.openRequests())

	for i, path := range []string{beside, nested} {
		f.write(path, lines("more", i, 1), true)
		history(t, ix, sessA)
		reqs := m.openRequests()
		require.Len(t, reqs, opens+i+1, "a subagent's change maps its session again")
		require.Nil(t, reqs[len(reqs)-1].Resume, "from the start: a subagent's events sit inside the session's")
	}
}

// A turn Baton ran that ended after its session was mapped is mapped with its end: the receipts are part of what
// the index compares.
func TestAReceiptEndedSinceMapsTheSessionAgain(t *testing.T) {
	f := newFixture(t)
	f.write(f.path("p", sessA), lines("a", 0, 4), false)
	var mu sync.Mutex
	var ends []protocol.ReceiptEnd
	m := newStandIn("v1", f.projects)
	ix, err := Open(context.Background(), Options{Dir: f.data, ProjectsDir: f.projects, Mapper: m, Logger: zerolog.Nop(),
		Receipts: func(string) []protocol.ReceiptEnd {
			mu.Lock()
			defer mu.Unlock()
			return ends
		}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	history(t, ix, sessA)
	history(t, ix, sessA)
	require.Len(t, m.openRequests(), 1, "one job")

	mu.Lock()
	ends = []protocol.ReceiptEnd{{ProviderMessage: "a-0", Outcome: "completed", EndedAt: "2026-12-02T00:00:00Z"}}
	mu.Unlock()
	history(t, ix, sessA)
	reqs := m.openRequests()
	require.Len(t, reqs, 2)
	require.Equal(t, ends, reqs[1].Receipts)
	history(t, ix, sessA)
	require.Len(t, m.openRequests(), 2, "mapped with those ends, it is current")
}
