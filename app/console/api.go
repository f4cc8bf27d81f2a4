// Package console is the one API the console frontend calls, whichever transport carries it: the window binds
// it with Wails, `baton serve` exposes it over a WebSocket (see API.md).
package console

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/filefind"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/baton-console/baton/app/terminal"
	"github.com/rs/zerolog"
)

// callTimeout bounds one call from the frontend; starting a session spawns processes, so it is generous.
const callTimeout = 90 * time.Second

// Options configure the API for one transport.
type Options struct {
	Sessions  *session.Manager
	Transport string // "wails" or "websocket"
	Version   string
	Logger    zerolog.Logger
	// PickFolder opens a native folder picker (window only); nil where there is none.
	PickFolder func() (string, error)
	// Notify shows a native notification; nil where there is none.
	Notify func(title, body string) error
	// Host holds provisioning and sign-in state (nil: both unknown).
	Host *HostState
	// SignIn opens a terminal running Claude Code's sign-in; nil where that cannot happen.
	SignIn func() error
	// RetryProvision starts provisioning again after a failure; nil where provisioning is not run.
	RetryProvision func()
	// ListModels answers the composer's model list for the signed-in account (discovery.Service.List); nil where
	// models are not discovered.
	ListModels func(ctx context.Context) (ModelList, error)
	// Meta keeps pins, archives and forks in Baton's data dir; nil where there is none (those calls then fail
	// with code unavailable).
	Meta *sessionmeta.Store
	// Terminals runs the console's terminals (terminal.go); nil where there are none (those calls are unavailable).
	Terminals *terminal.Service
	// Claude is the provisioned claude executable, for the sign-in and Claude Code's TUI in a terminal.
	Claude func() (string, error)
	// Settings keeps the console settings in Baton's data dir; nil where there is none (saving then fails with
	// code unavailable).
	Settings *SettingsStore
	// Index answers search and usage; nil where there is none (those calls then fail with code unavailable).
	Index Index
}

// API is the console's API. Its exported methods are what Wails binds (window.go.console.API.<Method>).
type API struct {
	opts  Options
	log   *liveLog
	terms *sessionTerminals
	files *filefind.Index // the @-mentions' listings, per folder
	feed  *changesFeed    // pushes open sessions' change counts; nil without a HostState to push them through
}

// New creates the API over a session manager.
func New(opts Options) *API {
	a := &API{opts: opts, log: newLiveLog(opts.Sessions), terms: newSessionTerminals(), files: filefind.NewIndex(0)}
	if opts.Host != nil {
		a.feed = newChangesFeed(a)
	}
	return a
}

// Release stops the API's own bookkeeping (sessions are the manager's). It is a function, not a method, so that
// Wails binds only the API's calls.
func Release(a *API) {
	a.log.close()
	if a.feed != nil {
		a.feed.close()
	}
}

func ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), callTimeout)
}

// Capabilities says what this transport offers.
func (a *API) Capabilities(Empty) (Capabilities, error) {
	return Capabilities{Transport: a.opts.Transport, FolderPicker: a.opts.PickFolder != nil,
		Notifications: a.opts.Notify != nil, Version: a.opts.Version}, nil
}

// Snapshot returns everything that lasts: open sessions with their lasting events, provisioning and sign-in.
func (a *API) Snapshot(Empty) (Snapshot, error) {
	// Every front end loads a snapshot when it (re)connects; the window test waits for this line to know the
	// console itself came up, not just an empty window.
	a.opts.Logger.Info().Str("transport", a.opts.Transport).Msg("console connected")
	host := a.opts.Host
	if host == nil {
		host = NewHostState()
	}
	snap := Snapshot{Sessions: []LiveSession{}, Provisioning: host.Provision(), Auth: host.Auth(),
		Index: host.Index(), SessionIdleSeconds: int(a.opts.Sessions.Idle() / time.Second), Changes: host.Changes()}
	for _, s := range a.opts.Sessions.Open() {
		st := s.State()
		state := activity.SessionStateAwake
		if st.Asleep {
			state = activity.SessionStateAsleep
		}
		snap.Sessions = append(snap.Sessions, LiveSession{Session: st.ID, Cwd: st.Cwd, RequestedModel: st.RequestedModel,
			EffectiveModel: st.EffectiveModel, PermissionMode: st.PermissionMode, State: state, Events: nonNil(a.log.of(st.ID))})
	}
	return snap, nil
}

// PickFolder opens the native folder picker.
func (a *API) PickFolder(Empty) (FolderResult, error) {
	if a.opts.PickFolder == nil {
		return FolderResult{}, &Error{Code: CodeUnavailable, Message: "There is no folder picker here; type the folder's path."}
	}
	path, err := a.opts.PickFolder()
	if err != nil {
		return FolderResult{}, err
	}
	if path == "" {
		return FolderResult{}, nil
	}
	return FolderResult{Path: &path}, nil
}

// StartSession opens a new, resumed or forked session; with Worktree, a new one in a new git worktree
// (worktreestart.go).
func (a *API) StartSession(p StartParams) (StartResult, error) {
	var res StartResult
	if strings.TrimSpace(p.Cwd) == "" {
		return res, badRequest("Choose a project folder first.")
	}
	if !filepath.IsAbs(p.Cwd) { // relative to what? Baton's own folder is no project's (as in CompletePath)
		return res, badRequest("Type the project folder's full path, starting with %s.", string(filepath.Separator))
	}
	c, cancel := ctx()
	defer cancel()
	opts := session.StartOptions{Cwd: p.Cwd, Model: p.Model, PermissionMode: p.PermissionMode,
		Resume: p.Resume, ForkFrom: p.ForkFrom, At: p.At}
	if p.Worktree != nil {
		var err error
		if res, err = a.startInWorktree(c, &opts, *p.Worktree); err != nil {
			return res, err
		}
	}
	s, err := a.opts.Sessions.Start(c, opts)
	if err != nil {
		if res.Worktree != nil {
			a.undoWorktree(opts.ID, res.Worktree)
		}
		return res, err
	}
	go a.forgetWhenDone(s)
	if a.feed != nil {
		a.feed.watch(s)
	}
	if p.ForkFrom != "" {
		a.recordFork(s.ID(), p.ForkFrom)
	}
	res.Session = s.ID()
	return res, nil
}

func (a *API) forgetWhenDone(s *session.Session) {
	<-s.Done()
	// Keep the log a moment so a client reading the snapshot right now still sees the session close.
	time.Sleep(time.Second)
	if _, open := a.opts.Sessions.Get(s.ID()); !open {
		a.log.forget(s.ID())
	}
}

func (a *API) open(id string) (*session.Session, error) {
	s, ok := a.opts.Sessions.Get(id)
	if !ok {
		return nil, notFound("Session %s is not open; resume it first.", id)
	}
	return s, nil
}

// SendPrompt sends a prompt; it waits behind a running turn.
func (a *API) SendPrompt(p PromptParams) (PromptResult, error) {
	if strings.TrimSpace(p.Prompt) == "" && len(p.Images) == 0 {
		return PromptResult{}, badRequest("The prompt is empty.")
	}
	if err := checkImages(p.Images); err != nil {
		return PromptResult{}, err
	}
	s, err := a.writable(p.Session)
	if err != nil {
		return PromptResult{}, err
	}
	c, cancel := ctx()
	defer cancel()
	turn, queued, err := s.SendWith(c, p.Prompt, p.Images)
	if err != nil {
		return PromptResult{}, err
	}
	return PromptResult{Turn: turn, Queued: queued}, nil
}

// CancelTurn cancels the running turn, or removes a queued one before it starts. It answers within the budgets
// (plus a few seconds for a dead sidecar), never later.
func (a *API) CancelTurn(p CancelParams) (CancelResult, error) {
	s, err := a.open(p.Session)
	if err != nil {
		return CancelResult{}, err
	}
	budgets := session.DefaultCancelBudgets
	for _, b := range []*int{p.InterruptBudgetMs, p.DrainBudgetMs} {
		if b != nil && (*b < 0 || *b > maxBudgetMs) {
			return CancelResult{}, badRequest("A cancel budget must be between 0 and %d ms.", maxBudgetMs)
		}
	}
	if p.InterruptBudgetMs != nil {
		budgets.Interrupt = time.Duration(*p.InterruptBudgetMs) * time.Millisecond
		budgets.SkipInterrupt = *p.InterruptBudgetMs == 0
	}
	if p.DrainBudgetMs != nil && *p.DrainBudgetMs > 0 {
		budgets.Drain = time.Duration(*p.DrainBudgetMs) * time.Millisecond
	}
	rep, err := s.Cancel(context.Background(), p.Turn, budgets)
	if err != nil {
		return CancelResult{}, err
	}
	return CancelResult{Disposition: rep.Disposition, Turn: rep.Turn, Phase: rep.Phase, Forced: rep.Forced}, nil
}

// maxBudgetMs bounds each cancel budget a caller may ask for (the wire's own bound).
const maxBudgetMs = 600_000

// GuideTurn steers the running turn with prompt (an ordinary prompt when no turn runs).
func (a *API) GuideTurn(p PromptParams) (GuideResult, error) {
	if strings.TrimSpace(p.Prompt) == "" {
		return GuideResult{}, badRequest("The guidance is empty.")
	}
	if err := checkImages(p.Images); err != nil {
		return GuideResult{}, err
	}
	s, err := a.writable(p.Session)
	if err != nil {
		return GuideResult{}, err
	}
	c, cancel := ctx()
	defer cancel()
	turn, guided, err := s.GuideWith(c, p.Prompt, p.Images)
	if err != nil {
		return GuideResult{}, err
	}
	return GuideResult{Turn: turn, Guided: guided}, nil
}

// StopTask stops one of a session's background tasks; its task.completed event follows.
func (a *API) StopTask(p StopTaskParams) (Empty, error) {
	if p.TaskID == "" {
		return Empty{}, badRequest("Name the background task to stop.")
	}
	s, err := a.open(p.Session)
	if err != nil {
		return Empty{}, err
	}
	c, cancel := ctx()
	defer cancel()
	return Empty{}, s.StopTask(c, p.TaskID)
}

// SendToBackground moves a running Bash command or agent (or all foreground work) to the background.
func (a *API) SendToBackground(p BackgroundParams) (BackgroundResult, error) {
	s, err := a.open(p.Session)
	if err != nil {
		return BackgroundResult{}, err
	}
	c, cancel := ctx()
	defer cancel()
	moved, err := s.SendToBackground(c, p.ToolUseID)
	if err != nil {
		return BackgroundResult{}, err
	}
	return BackgroundResult{Backgrounded: moved}, nil
}

// AnswerPermission settles a permission request; false when it was already settled elsewhere.
func (a *API) AnswerPermission(p AnswerParams) (AnswerResult, error) {
	switch p.Verdict {
	case "allow", "allow_always", "deny":
	default:
		return AnswerResult{}, badRequest("Unknown verdict %q.", p.Verdict)
	}
	s, err := a.open(p.Session)
	if err != nil {
		return AnswerResult{}, err
	}
	if p.Mode != "" && !p.Mode.Valid() {
		return AnswerResult{}, badRequest("Unknown permission mode %q.", p.Mode)
	}
	c, cancel := ctx()
	defer cancel()
	// The reply is the sidecar's permission reply, which the contract's answerPermission result is.
	return s.AnswerWith(c, p.RequestID, session.PermissionAnswer{Verdict: p.Verdict, Message: p.Message,
		By: activity.PermissionAuthorUser, Answers: p.Answers, Mode: p.Mode})
}

// SetModel changes the requested model.
func (a *API) SetModel(p ModelParams) (Empty, error) {
	s, err := a.writable(p.Session)
	if err != nil {
		return Empty{}, err
	}
	c, cancel := ctx()
	defer cancel()
	return Empty{}, s.SetModel(c, p.Model)
}

// SetPermissionMode changes the permission mode.
func (a *API) SetPermissionMode(p ModeParams) (ModeResult, error) {
	s, err := a.writable(p.Session)
	if err != nil {
		return ModeResult{}, err
	}
	c, cancel := ctx()
	defer cancel()
	mode, err := s.SetPermissionMode(c, p.Mode)
	return ModeResult{Mode: mode}, err
}

// WakeSession readies a session for the prompt being typed in it (session.Session.Wake).
func (a *API) WakeSession(p SessionRef) (Empty, error) {
	s, err := a.writable(p.Session)
	if err != nil {
		return Empty{}, err
	}
	c, cancel := ctx()
	defer cancel()
	return Empty{}, s.Wake(c)
}

// CloseSession closes an open session.
func (a *API) CloseSession(p SessionRef) (Empty, error) {
	s, err := a.open(p.Session)
	if err != nil {
		return Empty{}, err
	}
	c, cancel := ctx()
	defer cancel()
	return Empty{}, s.Close(c)
}

// ListSessions lists stored sessions across projects, newest first, marking the open ones.
func (a *API) ListSessions(p ListParams) (ListResult, error) {
	c, cancel := ctx()
	defer cancel()
	list, err := a.opts.Sessions.ListSessions(c, p.Cwd, p.Limit)
	if err != nil {
		return ListResult{}, err
	}
	out := ListResult{Sessions: make([]SessionInfo, 0, len(list))}
	listed := make(map[string]bool, len(list))
	for _, info := range list {
		_, live := a.opts.Sessions.Get(info.Session)
		meta := a.meta(info.Session)
		out.Sessions = append(out.Sessions, sessionEntry(info, live, meta))
		listed[info.Session] = true
	}
	out.Sessions = append(out.Sessions, a.namedUnstored(listed, p.Cwd)...)
	return out, nil
}

// History returns a page of a stored session's history, newest page first.
func (a *API) History(p HistoryParams) (HistoryResult, error) {
	limit := p.Limit
	if limit <= 0 || limit > 2000 {
		limit = 500
	}
	if p.Before != nil && *p.Before < 0 {
		return HistoryResult{}, badRequest("History position %d is not valid.", *p.Before)
	}
	if !protocol.ValidSessionID(p.Session) {
		return HistoryResult{}, badRequest("%q is not a session id.", p.Session)
	}
	c, cancel := ctx()
	defer cancel()
	source, at := a.historySource(p.Session)
	page, err := a.opts.Sessions.HistoryAt(c, source, p.Cwd, at, p.Before, limit)
	if err != nil {
		return HistoryResult{}, err
	}
	for i := range page.Events {
		page.Events[i].Session = p.Session // a fork shows its parent's conversation as its own
	}
	return HistoryResult{Events: nonNil(page.Events), Total: page.Total, Start: page.Start}, nil
}

// historySource is where an open session's earlier conversation is stored: a fork's is its parent's, and a
// session resumed or forked at a message continues from that message (what came after it is not its history).
// The open session's own turns are in its live events.
func (a *API) historySource(id string) (source, at string) {
	s, open := a.opts.Sessions.Get(id)
	if !open {
		return id, ""
	}
	st := s.State()
	if st.ForkedFrom != "" {
		return st.ForkedFrom, st.At
	}
	return id, st.At
}

// Notify shows a native notification.
func (a *API) Notify(p NotifyParams) (Empty, error) {
	if a.opts.Notify == nil {
		return Empty{}, &Error{Code: CodeUnavailable, Message: "Native notifications are not available here."}
	}
	return Empty{}, a.opts.Notify(p.Title, p.Body)
}

// SignIn opens a terminal running Claude Code's own sign-in.
func (a *API) SignIn(Empty) (Empty, error) {
	if a.opts.SignIn == nil {
		return Empty{}, &Error{Code: CodeUnavailable, Message: "Baton cannot open a terminal here; run the sign-in command shown."}
	}
	if err := a.opts.SignIn(); err != nil {
		return Empty{}, &Error{Code: CodeUnavailable, Message: err.Error()}
	}
	return Empty{}, nil
}

// RetryProvision starts installing the claude executable again.
func (a *API) RetryProvision(Empty) (Empty, error) {
	if a.opts.RetryProvision == nil {
		return Empty{}, &Error{Code: CodeUnavailable, Message: "Provisioning is not run by this Baton."}
	}
	a.opts.RetryProvision()
	return Empty{}, nil
}

// ListModels lists the models the signed-in account offers, for the composer of a session not yet open. It
// waits a bounded time; when the discovery takes longer it fails with code unavailable and a later call gets the
// answer.
func (a *API) ListModels(Empty) (ModelList, error) {
	if a.opts.ListModels == nil {
		return ModelList{}, &Error{Code: CodeUnavailable, Message: "Model discovery is not run by this Baton."}
	}
	c, cancel := ctx()
	defer cancel()
	list, err := a.opts.ListModels(c)
	if err != nil {
		return ModelList{}, &Error{Code: CodeUnavailable, Message: err.Error()}
	}
	return list, nil
}

// maxIdleSeconds bounds the idle setting (a week): longer is "never" in all but name.
const maxIdleSeconds = 7 * 24 * 3600

// SetSessionIdle sets how long an open session may sit idle before it sleeps (0: never); it is kept in the saved
// settings, so it holds after a restart (BATON_SESSION_IDLE at launch wins over it).
func (a *API) SetSessionIdle(p IdleParams) (IdleParams, error) {
	if p.Seconds < 0 || p.Seconds > maxIdleSeconds {
		return IdleParams{}, badRequest("The idle time must be between 0 (never sleep) and %d seconds.", maxIdleSeconds)
	}
	a.opts.Sessions.SetIdle(time.Duration(p.Seconds) * time.Second)
	a.rememberIdle(p.Seconds)
	a.opts.Logger.Info().Int("seconds", p.Seconds).Msg("session idle time set")
	return p, nil
}

func nonNil(events []activity.Event) []activity.Event {
	if events == nil {
		return []activity.Event{}
	}
	return events
}
