package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/receipts"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
)

// Config configures a Manager.
type Config struct {
	SidecarPath string
	// Env is the sidecars' whole environment (nil: Baton's own). The CLI child inherits it, so
	// ANTHROPIC_BASE_URL, HOME or CLAUDE_CONFIG_DIR set by a user or a test reach it.
	Env []string
	// Executable returns the fallback claude path handed to the sidecar (nil: none).
	Executable func(ctx context.Context) (string, error)
	// Gate, when set, is held while a session starts, so credential work (a sign-in probe, model discovery)
	// never overlaps it.
	Gate func(ctx context.Context, purpose string) (release func(), err error)
	// Receipts, when set, records every turn the sessions run (app/receipts).
	Receipts ReceiptLog
	// Idle is how long an open session may sit idle before it sleeps (0: never); SetIdle changes it later.
	Idle time.Duration
	// AfterFunc arms an idle countdown (nil: time.AfterFunc). Tests pass one whose countdowns they run out.
	AfterFunc func(d time.Duration, f func()) (stop func() bool)
	Logger    zerolog.Logger
}

// StartOptions opens a session: new (ID optional), resume (Resume = the id to reopen), or fork (ForkFrom).
type StartOptions struct {
	ID             string
	Cwd            string
	Model          string
	PermissionMode activity.PermissionMode
	Resume         string
	ForkFrom       string
	At             string // resume or fork at this message uuid
	// Restricted makes the session a restricted run (app/runner): only these host tools, answered with
	// Session.AnswerTool; no built-in tool, setting, hook, MCP server or skill. New sessions only.
	Restricted *protocol.RestrictedRun
	// McpServers are added to the person's and the project's own MCP servers (an ACP client's, say). They stay
	// with the session: a wake starts them again.
	McpServers []protocol.McpServer
}

// Manager owns every open session and the event bus.
type Manager struct {
	cfg Config
	bus *Bus

	idle atomic.Int64 // time.Duration

	mu       sync.Mutex
	sessions map[string]*Session
	stored   StoredSessions
}

// StoredSessions is where stored sessions are read from when not from a one-shot sidecar: Baton's index
// (app/index, wired by the host). An error from it falls back to the sidecar's own reading.
type StoredSessions interface {
	ListSessions(ctx context.Context, cwd string, limit int) ([]protocol.SessionInfo, error)
	HistoryAt(ctx context.Context, id, at string, before *int, limit int) (HistoryPage, error)
	MessageParent(ctx context.Context, id, message string) (parent string, found bool, err error)
}

// UseStored reads stored sessions from s (nil: from a one-shot sidecar again).
func (m *Manager) UseStored(s StoredSessions) {
	m.mu.Lock()
	m.stored = s
	m.mu.Unlock()
}

// storedOr is the index to read from, or nil.
func (m *Manager) storedOr() StoredSessions {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stored
}

// fallBack says whether a failed index read is retried from the sidecar: always, but a caller's end is its own.
func (m *Manager) fallBack(ctx context.Context, what string, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	m.cfg.Logger.Warn().Err(err).Msg("the session index could not " + what + "; reading the transcript instead")
	return true
}

// NewManager creates a manager; no process starts until a session does.
func NewManager(cfg Config) *Manager {
	m := &Manager{cfg: cfg, bus: newBus(), sessions: map[string]*Session{}}
	m.idle.Store(int64(cfg.Idle))
	return m
}

// Idle is how long an open session may sit idle before it sleeps (0: never).
func (m *Manager) Idle() time.Duration { return time.Duration(m.idle.Load()) }

// SetIdle changes the idle time; every open session's countdown starts again from now.
func (m *Manager) SetIdle(d time.Duration) {
	if d < 0 {
		d = 0
	}
	m.idle.Store(int64(d))
	for _, s := range m.Open() {
		s.mu.Lock()
		s.armIdleLocked()
		s.mu.Unlock()
	}
}

func (m *Manager) afterFunc(d time.Duration, f func()) func() bool {
	if m.cfg.AfterFunc != nil {
		return m.cfg.AfterFunc(d, f)
	}
	return time.AfterFunc(d, f).Stop
}

// Subscribe delivers every session's events the filter accepts (all when nil).
func (m *Manager) Subscribe(filter func(activity.Event) bool) *Subscription {
	return m.bus.Subscribe(filter)
}

// Get returns an open session.
func (m *Manager) Get(id string) (*Session, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	return s, ok
}

// Open lists the open sessions.
func (m *Manager) Open() []*Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// Start opens a session in its own sidecar process.
func (m *Manager) Start(ctx context.Context, opts StartOptions) (*Session, error) {
	req, err := m.startRequest(ctx, opts)
	if err != nil {
		return nil, err
	}
	requested := opts.Model
	if requested == "" {
		requested = "default"
	}
	s := &Session{
		id: req.Session, cwd: req.Cwd, mgr: m, bus: m.bus, log: m.cfg.Logger,
		pumpDone: make(chan struct{}), pendingPerms: map[string]string{}, tools: openTools{}, turnTokens: map[string]int{},
		receipts: m.cfg.Receipts, startReq: req, resumable: req.Resume,
		resumed: req.Resume, forkedFrom: req.ForkFrom, at: req.At,
		requestedModel: requested, permissionMode: opts.PermissionMode,
		onEnd: m.forget,
	}
	if err := m.claim(ctx, s); err != nil {
		return nil, err
	}
	l, err := m.launch(ctx, s, req, false)
	if err != nil {
		m.forget(s)
		return nil, err
	}
	s.mu.Lock()
	s.link = l
	s.armIdleLocked()
	s.mu.Unlock()
	return s, nil
}

// launch starts a sidecar for the session and opens it there: Start's first process, or a wake's fresh one. A
// refused start leaves nothing running.
func (m *Manager) launch(ctx context.Context, s *Session, req protocol.StartRequest, wake bool) (*link, error) {
	if m.cfg.Gate != nil {
		release, err := m.cfg.Gate(ctx, "session start")
		if err != nil {
			return nil, fmt.Errorf("start the session: %w", err)
		}
		defer release()
	}
	client, err := sidecar.Start(ctx, m.sidecarConfig())
	if err != nil {
		return nil, err
	}
	l := newLink(client, wake)
	go s.pump(l)
	var rep protocol.StartReply
	if err := client.Call(ctx, protocol.ReqStart, req, &rep); err != nil {
		l.retiring.Store(true) // a refused start is not a crash: no sidecar_exited events, and the session stays
		_ = client.Close(2 * time.Second)
		<-l.done
		return nil, fmt.Errorf("start the session: %w", err)
	}
	l.started.Store(true)
	m.cfg.Logger.Info().Str("session", s.id).Str("executable", rep.Executable).Bool("resume", req.Resume).
		Bool("fork", req.ForkFrom != "").Bool("wake", wake).Msg("session started")
	return l, nil
}

func (m *Manager) startRequest(ctx context.Context, opts StartOptions) (protocol.StartRequest, error) {
	cwd := opts.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return protocol.StartRequest{}, fmt.Errorf("find the working directory: %w", err)
		}
		cwd = wd
	}
	abs, err := filepath.Abs(cwd)
	if err != nil {
		return protocol.StartRequest{}, startError(err, "the folder %q is not a usable path (%v); choose an existing project folder", cwd, err)
	}
	if err := checkFolder(abs); err != nil {
		return protocol.StartRequest{}, err
	}
	if opts.Resume != "" && opts.ForkFrom != "" {
		return protocol.StartRequest{}, startError(nil, "resume and fork cannot be combined: pick one")
	}
	if opts.Restricted != nil && (opts.Resume != "" || opts.ForkFrom != "" || opts.PermissionMode != "") {
		return protocol.StartRequest{}, startError(nil, "a restricted run is a new session with its own permission mode: no resume, fork or permission mode")
	}
	if opts.Restricted != nil && len(opts.McpServers) > 0 {
		return protocol.StartRequest{}, startError(nil, "a restricted run has only its own tools: no MCP server")
	}
	req := protocol.StartRequest{Cwd: abs, Model: opts.Model, PermissionMode: opts.PermissionMode, At: opts.At, Restricted: opts.Restricted,
		McpServers: opts.McpServers}
	for _, id := range []string{opts.ID, opts.Resume, opts.ForkFrom} {
		if id != "" {
			if !protocol.ValidSessionID(id) {
				return protocol.StartRequest{}, startError(nil, "%q is not a session id (a UUID such as 0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b)", id)
			}
		}
	}
	switch {
	case opts.Resume != "":
		if opts.ID != "" && opts.ID != opts.Resume {
			return protocol.StartRequest{}, startError(nil, "a resumed session keeps its id; to get a new id, fork it")
		}
		req.Session, req.Resume = opts.Resume, true
	case opts.ForkFrom != "":
		req.Session, req.ForkFrom = opts.ID, opts.ForkFrom
		if req.Session == "" {
			req.Session = uuid.NewString()
		}
	default:
		if opts.At != "" {
			return protocol.StartRequest{}, startError(nil, "a message to start at needs a session to resume or fork")
		}
		req.Session = opts.ID
		if req.Session == "" {
			req.Session = uuid.NewString()
		}
	}
	if m.cfg.Executable != nil {
		path, err := m.cfg.Executable(ctx)
		if err != nil {
			return protocol.StartRequest{}, fmt.Errorf("find the claude executable: %w", err)
		}
		req.Executable = path
	}
	return req, nil
}

// claim holds s's id for it from here, so the same id cannot open twice meanwhile. A session of that id that is
// closing is waited out: its session.closed is shown before its process has gone, and a prompt typed right after
// Close resumes it rather than failing "already open".
func (m *Manager) claim(ctx context.Context, s *Session) error {
	for {
		m.mu.Lock()
		old, open := m.sessions[s.id]
		if !open {
			m.sessions[s.id] = s
			m.mu.Unlock()
			return nil
		}
		m.mu.Unlock()
		if !old.ending() {
			return fmt.Errorf("session %s is already open", s.id)
		}
		select {
		case <-old.Done():
		case <-ctx.Done():
			return fmt.Errorf("session %s is still closing: %w", s.id, ctx.Err())
		}
	}
}

func (m *Manager) forget(s *Session) {
	m.mu.Lock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
	m.mu.Unlock()
}

func (m *Manager) sidecarConfig() sidecar.Config {
	env := m.cfg.Env
	if env == nil {
		env = os.Environ()
	}
	return sidecar.Config{Path: m.cfg.SidecarPath, Env: env, Logger: m.cfg.Logger}
}

// ReceiptEnds are how the turns Baton ran in a session ended, for history (a transcript holds no results).
func (m *Manager) ReceiptEnds(session string) []protocol.ReceiptEnd { return m.receiptEnds(session) }

func (m *Manager) receiptEnds(session string) []protocol.ReceiptEnd {
	list, err := m.Receipts(session)
	if err != nil {
		m.cfg.Logger.Warn().Err(err).Str("session", session).Msg("turn receipts unreadable; history shows no turn ends")
		return nil
	}
	var ends []protocol.ReceiptEnd
	for _, r := range list {
		if !r.Ended || r.ProviderMessage == "" {
			continue
		}
		end := protocol.ReceiptEnd{ProviderMessage: r.ProviderMessage, Outcome: string(r.Outcome),
			EndedAt: endTime(r).UTC().Format(time.RFC3339Nano), Code: activity.TurnFailureCode(r.Code), Forced: r.Forced}
		if r.Outcome == receipts.OutcomeCompleted {
			duration, cost := float64(r.DurationMs), r.CostUSD
			end.DurationMs, end.CostUsd = &duration, &cost
		}
		ends = append(ends, end)
	}
	return ends
}

// endTime is when a receipt's turn ended; a turn cut off by its host's death has no end of its own.
func endTime(r receipts.Receipt) time.Time {
	if r.EndedAt.IsZero() {
		return r.AcceptedAt
	}
	return r.EndedAt
}

// Receipts returns the receipts of the turns Baton ran in a session (none when no receipts are kept).
func (m *Manager) Receipts(session string) ([]receipts.Receipt, error) {
	if m.cfg.Receipts == nil {
		return nil, nil
	}
	return m.cfg.Receipts.Read(session)
}

// ListSessions lists stored sessions across projects (or in cwd), newest first.
func (m *Manager) ListSessions(ctx context.Context, cwd string, limit int) ([]protocol.SessionInfo, error) {
	if s := m.storedOr(); s != nil {
		list, err := s.ListSessions(ctx, cwd, limit)
		if err == nil || !m.fallBack(ctx, "list the sessions", err) {
			return list, err
		}
	}
	var rep protocol.ListSessionsReply
	if err := m.oneShot(ctx, protocol.ReqListSessions, protocol.ListSessionsRequest{Cwd: cwd, Limit: limit}, &rep); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	sort.SliceStable(rep.Sessions, func(i, j int) bool { return rep.Sessions[i].LastModified > rep.Sessions[j].LastModified })
	return rep.Sessions, nil
}

// RenameSession sets a stored session's own title (Claude Code's custom title); cwd, when known, narrows the search
// to its project.
func (m *Manager) RenameSession(ctx context.Context, id, title, cwd string) error {
	var rep protocol.RenameSessionReply
	if err := m.oneShot(ctx, protocol.ReqRenameSession, protocol.RenameSessionRequest{Session: id, Title: title, Cwd: cwd}, &rep); err != nil {
		return fmt.Errorf("rename the session: %w", err)
	}
	return nil
}

// HistoryPage is a page of a stored session's history: positions Start … Start+len(Events)-1 of Total.
type HistoryPage struct {
	Events []activity.Event
	Total  int
	Start  int
}

// History returns a page of a stored session's events, mapped exactly as live ones: at most limit events ending
// just before position before (nil: the newest page; limit 0: everything). Each event's seq is its position + 1.
func (m *Manager) History(ctx context.Context, id, cwd string, before *int, limit int) (HistoryPage, error) {
	return m.HistoryAt(ctx, id, cwd, "", before, limit)
}

// HistoryAt is History of the conversation up to and including message at ("" = all of it): what a session
// resumed or forked there continues from.
func (m *Manager) HistoryAt(ctx context.Context, id, cwd, at string, before *int, limit int) (HistoryPage, error) {
	if !protocol.ValidSessionID(id) {
		return HistoryPage{}, fmt.Errorf("%q is not a session id (see baton sessions)", id)
	}
	if s := m.storedOr(); s != nil {
		page, err := s.HistoryAt(ctx, id, at, before, limit)
		if err == nil || !m.fallBack(ctx, "read the history", err) {
			return page, err
		}
	}
	var rep protocol.HistoryReply
	req := protocol.HistoryRequest{Session: id, Cwd: cwd, Before: before, Limit: limit, Receipts: m.receiptEnds(id), At: at}
	if err := m.oneShot(ctx, protocol.ReqHistory, req, &rep); err != nil {
		return HistoryPage{}, fmt.Errorf("read the history of %s: %w", id, err)
	}
	page := HistoryPage{Events: make([]activity.Event, 0, len(rep.Events)), Total: rep.Total, Start: rep.Start}
	for i, raw := range rep.Events {
		ev, err := activity.DecodeEvent(raw)
		if err != nil {
			return HistoryPage{}, fmt.Errorf("history event %d is invalid: %w", rep.Start+i, err)
		}
		ev.Seq = uint64(rep.Start + i + 1)
		page.Events = append(page.Events, ev)
	}
	return page, nil
}

// MessageParent says which message a user message follows in a stored session's conversation: found false when
// it is not in it, parent "" when it opens it.
func (m *Manager) MessageParent(ctx context.Context, id, cwd, message string) (parent string, found bool, err error) {
	if s := m.storedOr(); s != nil {
		parent, found, err := s.MessageParent(ctx, id, message)
		if err == nil || !m.fallBack(ctx, "find a message", err) {
			return parent, found, err
		}
	}
	var rep protocol.MessageParentReply
	req := protocol.MessageParentRequest{Session: id, Cwd: cwd, Message: message}
	if err := m.oneShot(ctx, protocol.ReqMessageParent, req, &rep); err != nil {
		return "", false, fmt.Errorf("find the message before %s: %w", message, err)
	}
	return rep.Parent, rep.Found, nil
}

// ForkSession copies a stored session's conversation up to and including message upTo into a new session named
// title ("": Claude Code's default), and returns its id. It is how a rewind reaches before a /compact, where
// Claude Code cannot resume the session itself.
func (m *Manager) ForkSession(ctx context.Context, id, cwd, upTo, title string) (string, error) {
	var rep protocol.ForkSessionReply
	req := protocol.ForkSessionRequest{Session: id, Cwd: cwd, UpTo: upTo, Title: title}
	if err := m.oneShot(ctx, protocol.ReqForkSession, req, &rep); err != nil {
		return "", fmt.Errorf("copy the conversation up to %s: %w", upTo, err)
	}
	return rep.Session, nil
}

// oneShot runs a request that needs no open session in a short-lived sidecar.
func (m *Manager) oneShot(ctx context.Context, typ protocol.RequestType, payload, out any) error {
	client, err := sidecar.Start(ctx, m.sidecarConfig())
	if err != nil {
		return err
	}
	go func() {
		for range client.Events() {
		}
	}()
	callErr := client.Call(ctx, typ, payload, out)
	_ = client.Close(5 * time.Second)
	return callErr
}

// Shutdown closes every open session (request/ack each) and waits for their processes.
func (m *Manager) Shutdown(ctx context.Context) {
	var wg sync.WaitGroup
	for _, s := range m.Open() {
		wg.Add(1)
		go func(s *Session) {
			defer wg.Done()
			if err := s.Close(ctx); err != nil {
				m.cfg.Logger.Warn().Err(err).Str("session", s.id).Msg("close on shutdown")
			}
		}(s)
	}
	wg.Wait()
}
