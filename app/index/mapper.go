package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
)

// Mapper maps transcripts into events: the sidecar's transcript jobs (PROTOCOL.md, "Transcript jobs"), the one
// mapper of live sessions and history, and its session list (titles are the sidecar's to derive).
type Mapper interface {
	Open(ctx context.Context, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error)
	Next(ctx context.Context, req protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error)
	Close(ctx context.Context, job string) error
	ListSessions(ctx context.Context, cwd string) ([]protocol.SessionInfo, error)
	// Release ends what the mapper holds (a sidecar process).
	Release()
}

// SidecarMapper runs transcript jobs in one sidecar process of its own, started when first needed and again
// after it died. Once the index has been up to date for IdleRelease (no call running, no job open) the process
// ends, so a Baton whose index is built holds no mapper's memory; the next job starts it again. A short job (a
// live session's appended lines) runs in a sidecar a Lender lends (a running session's) instead, and the
// mapper's own then ends at once if idle, so a turn never keeps a second sidecar (issue 32: it was 88 MB of the
// idle figure for the minute after every turn).
type SidecarMapper struct {
	cfg sidecar.Config
	// schedule runs release after d unless the returned stop is called first (time.AfterFunc; tests take it).
	schedule func(d time.Duration, release func()) (stop func() bool)
	lend     Lender

	mu      sync.Mutex
	client  *sidecar.Client
	calls   int // calls running on client
	jobs    int // jobs opened on client and not closed
	pending func() bool
	lent    map[string]lentJob // jobs running in a lent sidecar, by the id this mapper gave them
	lentIDs int
}

// Lender lends a running sidecar for a short job, preferably session's own; nil when none runs. Lending must not
// wait (it is asked on the index's writer).
type Lender func(session string) *sidecar.Client

// lentJob is a job in a lent sidecar, under the id that sidecar gave it.
type lentJob struct {
	client *sidecar.Client
	job    string
}

// LendLimit is the most transcript a job may have left to map and still run in a lent sidecar: a live session's
// appends are far less; a whole large transcript would grow the session's heap for good.
const LendLimit = 1 << 20

// IdleRelease is how long the mapper's sidecar outlives its last job while no session lends one: a build's jobs
// follow one another closely; a change seen while none runs starts it again (about 100 ms).
const IdleRelease = 10 * time.Second

// indexRuntime is the mapper's own sidecar's runtime (the host + sidecar RSS of a build, issue 26):
//   - BATON_SIDECAR_INDEX=1: it runs no session, so it lets the pages loading touched go before its first job
//     (sidecar/src/main.ts), as a session's sidecar does once idle;
//   - heapGrowthMaxIncrease=1: after a collection JavaScriptCore lets the heap grow to twice what stayed live, not
//     three times (its figure on a machine with 16 GB or more; below, it is twice already).
//
// The bench's 120 MB build in serve: host + sidecars peak 194–205 → 169–180 MB at the same sidecar CPU
// (app/PERFORMANCE.md, "Index sidecar's heap and pages").
var indexRuntime = []string{"BATON_SIDECAR_INDEX=1", "BUN_JSC_heapGrowthMaxIncrease=1"}

// NewSidecarMapper maps with the sidecar cfg names, started with indexRuntime.
func NewSidecarMapper(cfg sidecar.Config) *SidecarMapper {
	cfg.Runtime = append(slices.Clip(cfg.Runtime), indexRuntime...)
	return &SidecarMapper{cfg: cfg, schedule: func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop },
		lent: map[string]lentJob{}}
}

// LendWith has short jobs run in what lend lends while the mapper's own sidecar is not running.
func (m *SidecarMapper) LendWith(lend Lender) {
	m.mu.Lock()
	m.lend = lend
	m.mu.Unlock()
}

func (m *SidecarMapper) call(ctx context.Context, typ protocol.RequestType, payload, out any) error {
	c, err := m.running(ctx)
	if err != nil {
		return err
	}
	defer m.called()
	return c.Call(ctx, typ, payload, out)
}

// Start starts the sidecar now when none runs, ahead of the calls that will need it; one that no call uses ends
// after IdleRelease, as after a call.
func (m *SidecarMapper) Start(ctx context.Context) error {
	if _, err := m.running(ctx); err != nil {
		return err
	}
	m.called()
	return nil
}

// running is the live sidecar (started when there is none), counted as in use until called.
func (m *SidecarMapper) running(ctx context.Context) (*sidecar.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending != nil {
		m.pending()
		m.pending = nil
	}
	if m.client != nil {
		select {
		case <-m.client.Done():
			m.client = nil
		default:
			m.calls++
			return m.client, nil
		}
	}
	c, err := sidecar.Start(ctx, m.cfg)
	if err != nil {
		return nil, fmt.Errorf("start the sidecar that maps transcripts: %w", err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	m.client = c
	m.calls++
	return c, nil
}

// called ends a call's use; the last one out with no job open schedules the release.
func (m *SidecarMapper) called() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls--
	if m.calls == 0 && m.jobs == 0 && m.client != nil && m.pending == nil {
		m.pending = m.schedule(IdleRelease, m.releaseIdle)
	}
}

// releaseIdle ends the sidecar if it is still unused.
func (m *SidecarMapper) releaseIdle() {
	m.mu.Lock()
	c := m.client
	if m.calls > 0 || m.jobs > 0 || c == nil {
		m.mu.Unlock()
		return
	}
	m.client, m.pending = nil, nil
	m.mu.Unlock()
	_ = c.Close(5 * time.Second)
}

func (m *SidecarMapper) jobOpened(delta int) {
	m.mu.Lock()
	m.jobs = max(0, m.jobs+delta)
	m.mu.Unlock()
}

// Open starts a job: in a lent sidecar when it is short and one is lent, else in the mapper's own.
func (m *SidecarMapper) Open(ctx context.Context, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	if c := m.lender(req); c != nil {
		rep, err := m.openLent(ctx, c, req)
		if !errors.Is(err, sidecar.ErrExited) { // a lent sidecar that just ended: the mapper's own maps it
			return rep, err
		}
	}
	var rep protocol.TranscriptOpenReply
	m.jobOpened(1) // before the call ends, so its end schedules no release under an open job
	err := m.call(ctx, protocol.ReqTranscriptOpen, req, &rep)
	if err != nil {
		m.jobOpened(-1)
	}
	return rep, err
}

// lender is the sidecar to lend for req's job, nil when the job is long or none is lent.
func (m *SidecarMapper) lender(req protocol.TranscriptOpenRequest) *sidecar.Client {
	return m.lenderFor(req.Session, remaining(req) > LendLimit)
}

// lenderFor is a lent sidecar for a request of session's (nil: none is lent, or the request is long).
func (m *SidecarMapper) lenderFor(session string, long bool) *sidecar.Client {
	m.mu.Lock()
	lend := m.lend
	m.mu.Unlock()
	if lend == nil || long {
		return nil
	}
	return lend(session)
}

// lentDone ends the mapper's own sidecar at once when it is idle: a lent one served the request, so the next short
// ones will be lent too (the mapper's own was started in a moment no session ran, e.g. as one fell asleep).
func (m *SidecarMapper) lentDone() {
	m.mu.Lock()
	idle := m.client != nil && m.calls == 0 && m.jobs == 0
	m.mu.Unlock()
	if idle {
		go m.releaseIdle()
	}
}

func (m *SidecarMapper) openLent(ctx context.Context, c *sidecar.Client, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	var rep protocol.TranscriptOpenReply
	if err := c.Call(ctx, protocol.ReqTranscriptOpen, req, &rep); err != nil {
		return rep, err
	}
	m.mu.Lock()
	m.lentIDs++
	id := fmt.Sprintf("lent-%d", m.lentIDs)
	m.lent[id] = lentJob{client: c, job: rep.Job}
	m.mu.Unlock()
	rep.Job = id
	return rep, nil
}

// lentAs is the lent sidecar and its own id of job, false for a job in the mapper's own sidecar.
func (m *SidecarMapper) lentAs(job string) (lentJob, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.lent[job]
	return j, ok
}

// remaining is how much of req's transcript is left to map (all of it when it cannot be read: the job says why).
func remaining(req protocol.TranscriptOpenRequest) int64 {
	fi, err := os.Stat(req.File)
	if err != nil {
		return 0
	}
	if req.Resume != nil {
		return fi.Size() - int64(req.Resume.Offset)
	}
	return fi.Size()
}

// Next reads the job's next page.
func (m *SidecarMapper) Next(ctx context.Context, req protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error) {
	var rep protocol.TranscriptNextReply
	if j, ok := m.lentAs(req.Job); ok {
		req.Job = j.job
		return rep, j.client.Call(ctx, protocol.ReqTranscriptNext, req, &rep)
	}
	err := m.call(ctx, protocol.ReqTranscriptNext, req, &rep)
	return rep, err
}

// Close ends a job; one the sidecar lost with its process needs no closing.
func (m *SidecarMapper) Close(ctx context.Context, job string) error {
	var err error
	if j, ok := m.lentAs(job); ok {
		m.mu.Lock()
		delete(m.lent, job)
		m.mu.Unlock()
		err = j.client.Call(ctx, protocol.ReqTranscriptClose, protocol.TranscriptCloseRequest{Job: j.job}, nil)
		m.lentDone()
	} else {
		m.jobOpened(-1) // before the call ends: this close's end may schedule the release
		err = m.call(ctx, protocol.ReqTranscriptClose, protocol.TranscriptCloseRequest{Job: job}, nil)
	}
	if errors.Is(err, sidecar.ErrExited) {
		return nil
	}
	return err
}

// ListSessions lists the stored sessions of one project folder (all of them when cwd is ""): one folder's in a lent
// sidecar when one runs (the titles of a live session's changes), all in the mapper's own.
func (m *SidecarMapper) ListSessions(ctx context.Context, cwd string) ([]protocol.SessionInfo, error) {
	var rep protocol.ListSessionsReply
	req := protocol.ListSessionsRequest{Cwd: cwd}
	if c := m.lenderFor("", cwd == ""); c != nil {
		err := c.Call(ctx, protocol.ReqListSessions, req, &rep)
		if !errors.Is(err, sidecar.ErrExited) {
			m.lentDone()
			return rep.Sessions, err
		}
	}
	if err := m.call(ctx, protocol.ReqListSessions, req, &rep); err != nil {
		return nil, err
	}
	return rep.Sessions, nil
}

// Release stops the sidecar.
func (m *SidecarMapper) Release() {
	m.mu.Lock()
	c := m.client
	m.client = nil
	if m.pending != nil {
		m.pending()
		m.pending = nil
	}
	m.mu.Unlock()
	if c != nil {
		_ = c.Close(5 * time.Second)
	}
}
