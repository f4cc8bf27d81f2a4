// Package session runs Claude Code sessions through sidecar processes: one sidecar per open session, so a
// sidecar that dies takes down only its own session, whose open turns and permission requests are failed
// explicitly instead of hanging.
package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
)

// ErrClosed is returned by calls on a session that has ended.
var ErrClosed = errors.New("the session is closed")

// Session is one open Claude Code session. While it sleeps (sleep.go) it holds no process: link is nil until the
// next prompt or setting wakes it in a fresh sidecar resuming the same session.
type Session struct {
	id       string
	cwd      string
	mgr      *Manager
	bus      *Bus
	log      zerolog.Logger
	onEnd    func(*Session)
	pumpDone chan struct{} // closed once the session has ended and its last event was published
	emitMu   sync.Mutex
	receipts ReceiptLog // nil: no receipts
	// receiptEnds: the turns whose receipt has no end yet, for a cancel to wait on (receiptwait.go).
	receiptEnds receiptEnds
	// lifeMu serialises falling asleep and waking with the calls that need a process, so a prompt never reaches
	// a sidecar that is being retired.
	lifeMu sync.Mutex

	mu             sync.Mutex
	link           *link // nil while asleep
	startReq       protocol.StartRequest
	resumable      bool // a transcript exists: waking resumes it
	asleep         bool
	idleGen        uint64
	idleStop       func() bool
	seq            uint64
	openTurns      []string
	pendingPerms   map[string]string // request id → turn
	tools          openTools         // calls with no end yet, closed by the host when the sidecar dies
	turnTokens     map[string]int    // a running turn's output tokens, for its receipt
	requestedModel string
	effectiveModel string
	permissionMode activity.PermissionMode
	background     Background
	// continuationTurns are the turns Claude Code started on its own (a few ids per session; kept so their ends
	// write no receipt).
	continuationTurns map[string]bool
	closing           bool
	ended             bool
	// Where the conversation came from, for its history: resumed or forked (from forkedFrom) at message at.
	resumed    bool
	forkedFrom string
	at         string
}

// State is a snapshot of what the host knows about a session.
type State struct {
	ID             string
	Cwd            string
	RequestedModel string // what the person picked; "default" stays "default"
	EffectiveModel string // what the CLI reports it runs
	PermissionMode activity.PermissionMode
	OpenTurns      []string
	PendingPerms   []string
	Asleep         bool
	Ended          bool
	// Resumed or ForkedFrom at At: the conversation before this session's own turns is the stored one (of
	// ForkedFrom for a fork) up to message At.
	Resumed    bool
	ForkedFrom string
	At         string
	// Background is the work going on without a person's turn (Background.Busy).
	Background Background
}

// ID is the session's UUID.
func (s *Session) ID() string { return s.id }

// SidecarPID is the process id of the session's sidecar (0 while it sleeps).
func (s *Session) SidecarPID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.link == nil {
		return 0
	}
	return s.link.client.PID()
}

// State returns a snapshot.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{ID: s.id, Cwd: s.cwd, RequestedModel: s.requestedModel, EffectiveModel: s.effectiveModel,
		PermissionMode: s.permissionMode, OpenTurns: append([]string(nil), s.openTurns...), Asleep: s.asleep, Ended: s.ended,
		Resumed: s.resumed, ForkedFrom: s.forkedFrom, At: s.at}
	st.Background = Background{Tasks: append([]activity.BackgroundTask(nil), s.background.Tasks...),
		Continuations: append([]string(nil), s.background.Continuations...)}
	if s.background.Goal != nil {
		g := *s.background.Goal
		st.Background.Goal = &g
	}
	for id := range s.pendingPerms {
		st.PendingPerms = append(st.PendingPerms, id)
	}
	return st
}

// Exec sends a prompt. It returns the new turn's id at once; the turn's events follow on the bus. A prompt sent
// while another turn runs waits behind it.
func (s *Session) Exec(ctx context.Context, prompt string) (string, error) {
	turn, _, err := s.Send(ctx, prompt)
	return turn, err
}

// Send is Exec that also says whether the prompt waits behind another turn.
func (s *Session) Send(ctx context.Context, prompt string) (turn string, queued bool, err error) {
	return s.SendWith(ctx, prompt, nil)
}

// SendWith is Send with images that go with the prompt (image blocks before its text).
func (s *Session) SendWith(ctx context.Context, prompt string, images []protocol.PromptImage) (turn string, queued bool, err error) {
	turn = uuid.NewString()
	// Tracked before sending (and before the lifecycle lock is let go, so the session cannot fall asleep in
	// between), so a sidecar that dies right after still gets this turn failed explicitly.
	client, err := s.awake(ctx, func() { s.openTurns = append(s.openTurns, turn) })
	if err != nil {
		return "", false, err
	}
	// The receipt comes first: a turn nobody could record is not run (fail closed).
	if err := s.recordAccepted(turn, prompt); err != nil {
		s.mu.Lock()
		s.openTurns = remove(s.openTurns, turn)
		s.mu.Unlock()
		return "", false, fmt.Errorf("send the prompt: %w", err)
	}
	// Announced before the sidecar sees it, so it always precedes turn.started, and a window that connects
	// later still sees (and can remove) a prompt waiting behind the running turn.
	s.emit(activity.Event{Kind: activity.TurnQueued, Turn: turn, Prompt: prompt})
	var rep protocol.ExecReply
	if err := client.Call(ctx, protocol.ReqExec, protocol.ExecRequest{Session: s.id, Turn: turn, Prompt: prompt, Images: images}, &rep); err != nil {
		s.mu.Lock()
		open := contains(s.openTurns, turn)
		s.openTurns = remove(s.openTurns, turn)
		s.mu.Unlock()
		if open { // not already failed by the sidecar's death
			s.emit(activity.Event{Kind: activity.TurnFailed, Turn: turn, Code: activity.TurnFailureCodeNotSent.String(), Message: "The prompt could not be sent: " + err.Error()})
		}
		return "", false, s.callError("send the prompt", err)
	}
	return turn, rep.Queued, nil
}

// Cancel cancels a turn (the running one when turn is empty) within the budgets and reports the one disposition
// the sidecar found (PROTOCOL.md, "Cancel"). It never stays pending: the sidecar answers within the two budgets,
// and the call gives up a little after them (cancelAnswerSlack) with an error.
func (s *Session) Cancel(ctx context.Context, turn string, budgets CancelBudgets) (protocol.CancelReply, error) {
	var rep protocol.CancelReply
	budgets = budgets.orDefaults()
	ctx, stop := context.WithTimeout(ctx, budgets.Interrupt+budgets.Drain+cancelAnswerSlack)
	defer stop()
	req := protocol.CancelRequest{Session: s.id, Turn: turn,
		InterruptBudgetMs: int(budgets.Interrupt / time.Millisecond), DrainBudgetMs: int(budgets.Drain / time.Millisecond)}
	client := s.current()
	if client == nil { // asleep: nothing runs or waits
		return protocol.CancelReply{Disposition: activity.CancelDispositionAbsent, Turn: turn, Phase: activity.CancelPhaseNone}, nil
	}
	if err := client.Call(ctx, protocol.ReqCancel, req, &rep); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return rep, fmt.Errorf("cancel: the agent process did not answer within %s: %w",
				budgets.Interrupt+budgets.Drain+cancelAnswerSlack, err)
		}
		return rep, s.callError("cancel", err)
	}
	if !rep.Disposition.Valid() {
		return rep, fmt.Errorf("cancel: the agent process answered an unknown disposition %q", rep.Disposition)
	}
	// Confirmed only once the turn's acceptance outcome and end are durable in its receipt.
	if err := s.receiptEnds.wait(ctx, rep.Turn); err != nil {
		return rep, fmt.Errorf("cancel: the turn stopped, but its end was not recorded in time: %w", err)
	}
	return rep, nil
}

// Guide steers the running turn: Claude Code's response is interrupted and prompt is sent on the same turn
// (turn.guided marks the point). With no turn running, prompt is sent as an ordinary prompt: guided is false and
// turn is the new turn.
func (s *Session) Guide(ctx context.Context, prompt string) (turn string, guided bool, err error) {
	return s.GuideWith(ctx, prompt, nil)
}

// GuideWith is Guide with images that go with the guidance.
func (s *Session) GuideWith(ctx context.Context, prompt string, images []protocol.PromptImage) (turn string, guided bool, err error) {
	var rep protocol.GuideReply
	if client := s.current(); client != nil { // asleep: no turn runs, so the guidance is an ordinary prompt
		if err := client.Call(ctx, protocol.ReqGuide, protocol.GuideRequest{Session: s.id, Prompt: prompt, Images: images}, &rep); err != nil {
			return "", false, s.callError("steer the turn", err)
		}
	}
	if rep.Guided {
		return rep.Turn, true, nil
	}
	turn, _, err = s.SendWith(ctx, prompt, images)
	return turn, false, err
}

// Answer settles a permission request. It returns false when the request had already been settled.
func (s *Session) Answer(ctx context.Context, requestID string, verdict activity.Verdict, message string, by activity.PermissionAuthor) (bool, error) {
	rep, err := s.AnswerWith(ctx, requestID, PermissionAnswer{Verdict: verdict, Message: message, By: by})
	return rep.Settled, err
}

// PermissionAnswer is a verdict with what may come with it: a denial's message, AskUserQuestion's answers, the
// mode an approved plan continues in.
type PermissionAnswer struct {
	Verdict activity.Verdict
	Message string
	By      activity.PermissionAuthor
	Answers []activity.QuestionAnswer
	Mode    activity.PermissionMode
}

// AnswerWith settles a permission request once. A request already settled is left as it was: the reply says
// settled false and carries the answer recorded then.
func (s *Session) AnswerWith(ctx context.Context, requestID string, a PermissionAnswer) (protocol.PermissionReply, error) {
	var rep protocol.PermissionReply
	req := protocol.PermissionRequest{Session: s.id, RequestID: requestID, Verdict: a.Verdict, Message: a.Message, By: a.By,
		Answers: a.Answers, Mode: a.Mode}
	client := s.current()
	if client == nil { // asleep: no request is pending
		return rep, nil
	}
	if err := client.Call(ctx, protocol.ReqPermission, req, &rep); err != nil {
		return rep, s.callError("answer the permission request", err)
	}
	return rep, nil
}

// AnswerTool answers a restricted run's tool.called event: output is what the model reads; isError marks the call
// failed. It returns false when the call no longer waited (the run was canceled or ended meanwhile).
func (s *Session) AnswerTool(ctx context.Context, callID, output string, isError bool) (bool, error) {
	var rep protocol.ToolResultReply
	req := protocol.ToolResultRequest{Session: s.id, CallID: callID, Output: output, IsError: isError}
	client := s.current()
	if client == nil { // restricted runs never sleep; an asleep session has no call waiting
		return false, nil
	}
	if err := client.Call(ctx, protocol.ReqToolResult, req, &rep); err != nil {
		return false, s.callError("answer the tool call", err)
	}
	return rep.Settled, nil
}

// SetModel changes the requested model ("default" = the CLI's default). It wakes a sleeping session.
func (s *Session) SetModel(ctx context.Context, model string) error {
	client, err := s.awake(ctx, nil)
	if err != nil {
		return err
	}
	if err := client.Call(ctx, protocol.ReqSetModel, protocol.SetModelRequest{Session: s.id, Model: model}, nil); err != nil {
		return s.callError("change the model", err)
	}
	s.mu.Lock()
	s.requestedModel = model
	s.armIdleLocked()
	s.mu.Unlock()
	return nil
}

// SetPermissionMode changes the permission mode and returns the mode the CLI reports.
func (s *Session) SetPermissionMode(ctx context.Context, mode activity.PermissionMode) (activity.PermissionMode, error) {
	var rep protocol.SetPermissionModeReply
	client, err := s.awake(ctx, nil)
	if err != nil {
		return "", err
	}
	if err := client.Call(ctx, protocol.ReqSetPermissionMode, protocol.SetPermissionModeRequest{Session: s.id, Mode: mode}, &rep); err != nil {
		return "", s.callError("change the permission mode", err)
	}
	s.mu.Lock()
	s.permissionMode = rep.Mode
	s.armIdleLocked()
	s.mu.Unlock()
	return rep.Mode, nil
}

// Close shuts the session down: the sidecar acknowledges only after the SDK query has ended; then its stdin is
// closed and the process reaped. Close waits until the session's last event was published.
func (s *Session) Close(ctx context.Context) error {
	s.lifeMu.Lock()
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		s.lifeMu.Unlock()
		<-s.pumpDone
		return nil
	}
	s.closing = true
	s.disarmIdleLocked()
	l := s.link
	s.mu.Unlock()
	if l == nil { // asleep: no process to stop
		s.endAsleep()
		s.lifeMu.Unlock()
		return nil
	}
	s.lifeMu.Unlock()
	callErr := l.client.Call(ctx, protocol.ReqClose, protocol.CloseRequest{Session: s.id}, nil)
	grace := 5 * time.Second
	if callErr != nil {
		grace = 0 // the sidecar did not acknowledge: do not wait for it
	}
	_ = l.client.Close(grace)
	<-s.pumpDone
	if callErr != nil && !errors.Is(callErr, sidecar.ErrExited) {
		return fmt.Errorf("close session %s: %w", s.id, callErr)
	}
	return nil
}

// ending reports whether the session is closing or has ended, so its id is about to be free.
func (s *Session) ending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing || s.ended
}

// Done is closed once the session has ended and its last event was published.
func (s *Session) Done() <-chan struct{} { return s.pumpDone }

func (s *Session) callError(what string, err error) error {
	if errors.Is(err, sidecar.ErrExited) {
		return fmt.Errorf("%s: %w: %w", what, ErrClosed, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// pump stamps and publishes one sidecar's events, keeps the session's bookkeeping, and, when the process ends
// without a clean close or a retirement to sleep, fails what was still open and ends the session.
func (s *Session) pump(l *link) {
	defer close(l.done)
	for ev := range l.client.Events() {
		if ev.Session == "" {
			ev.Session = s.id // a protocol error from this session's sidecar belongs to it
		}
		ev.State = "" // sleep and wake are the host's to say
		if l.hidden(ev) {
			continue
		}
		s.observe(ev)
		s.emit(ev)
	}
	if l.retiring.Load() { // fell asleep, or a wake that failed: the session stays open
		return
	}
	defer close(s.pumpDone)
	s.mu.Lock()
	clean := s.closing
	turns := s.openTurns
	perms := s.pendingPerms
	settles := map[string][]activity.Event{}
	for _, turn := range turns {
		cause := activity.ToolInterruptCauseFailure
		if !clean {
			cause = activity.ToolInterruptCauseSidecarExited
		}
		settles[turn] = s.tools.take(turn, cause)
	}
	s.openTurns, s.pendingPerms = nil, map[string]string{}
	s.ended = true
	s.disarmIdleLocked()
	s.mu.Unlock()
	if !clean {
		msg := "The agent process stopped unexpectedly"
		if exitErr := l.client.Err(); exitErr != nil {
			msg += ": " + exitErr.Error()
		}
		s.log.Warn().Str("session", s.id).Int("open_turns", len(turns)).Msg("sidecar ended with the session open")
		for reqID, turn := range perms {
			s.emit(activity.Event{Kind: activity.PermissionSettled, Turn: turn, RequestID: reqID,
				Verdict: activity.VerdictDeny, By: "sidecar_exited", Message: msg})
		}
		for _, turn := range turns {
			s.emitAll(settles[turn])
			s.emit(activity.Event{Kind: activity.TurnFailed, Turn: turn, Code: "sidecar_exited", Message: msg})
		}
		s.emit(activity.Event{Kind: activity.SessionClosed, Reason: "sidecar_exited", Message: msg})
	} else {
		// The sidecar settles and ends everything before it acknowledges close; this is only a safety net so
		// that no front end waits on a turn forever.
		for _, turn := range turns {
			s.emitAll(settles[turn])
			s.emit(activity.Event{Kind: activity.TurnFailed, Turn: turn, Code: activity.TurnFailureCodeSessionClosed.String(), Message: "The session was closed during this turn"})
		}
	}
	if s.onEnd != nil {
		s.onEnd(s)
	}
}

func (s *Session) observe(ev activity.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observeBackground(ev)
	if s.tools == nil {
		s.tools = openTools{}
	}
	s.tools.observe(ev)
	switch ev.Kind {
	case activity.TurnStarted:
		// A continuation turn (no person's prompt) is open too: a sidecar that dies ends it like any other.
		if ev.Origin != "" && !contains(s.openTurns, ev.Turn) {
			s.openTurns = append(s.openTurns, ev.Turn)
		}
	case activity.TurnCompleted, activity.TurnFailed, activity.TurnCanceled:
		s.openTurns = remove(s.openTurns, ev.Turn)
		s.armIdleLocked()
	case activity.TurnAccepted:
		s.resumable = true // Claude Code persisted a prompt: a wake resumes the transcript
	case activity.TasksUpdated, activity.GoalUpdated:
		s.armIdleLocked() // background work that ended may let the session sleep (busyLocked decides)
	case activity.PermissionRequested:
		s.pendingPerms[ev.RequestID] = ev.Turn
	case activity.PermissionSettled:
		delete(s.pendingPerms, ev.RequestID)
	case activity.ModelResolved:
		s.effectiveModel = ev.Model
	case activity.SessionStarted:
		if ev.PermissionMode != "" {
			s.permissionMode = ev.PermissionMode
		}
	case activity.SessionUpdated:
		if ev.PermissionMode != "" {
			s.permissionMode = ev.PermissionMode
		}
		if ev.Model != "" {
			// A switch: the model reported before no longer runs, and the picked label says nothing of the one
			// that does; unknown until the CLI reports it (model.resolved).
			s.effectiveModel = ""
		}
	case activity.ProtocolError:
		s.log.Warn().Str("session", s.id).Str("code", ev.Code).Msg("protocol error from the sidecar")
	default:
		// The other kinds change nothing the session tracks.
	}
}

// emit stamps and publishes one event. Events come from the pump and from Send; seq and publication happen
// under one lock so subscribers see seq in order.
func (s *Session) emit(ev activity.Event) {
	s.emitMu.Lock()
	defer s.emitMu.Unlock()
	s.mu.Lock()
	s.seq++
	ev.Seq = s.seq
	s.mu.Unlock()
	ev.Session = s.id
	if ev.Time.IsZero() {
		ev.Time = time.Now().UTC()
	}
	s.recordEvent(ev)
	s.bus.publish(ev)
}

func (s *Session) emitAll(events []activity.Event) {
	for _, ev := range events {
		s.emit(ev)
	}
}

func contains(list []string, item string) bool {
	for _, v := range list {
		if v == item {
			return true
		}
	}
	return false
}

func remove(list []string, item string) []string {
	for i, v := range list {
		if v == item {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// RewindFiles restores the files the session changed to their state at a user message; with dryRun it only
// reports what would change.
func (s *Session) RewindFiles(ctx context.Context, message string, dryRun bool) (protocol.RewindFilesReply, error) {
	var rep protocol.RewindFilesReply
	req := protocol.RewindFilesRequest{Session: s.id, Message: message, DryRun: dryRun}
	client, err := s.awake(ctx, nil)
	if err != nil {
		return rep, err
	}
	if err := client.Call(ctx, protocol.ReqRewindFiles, req, &rep); err != nil {
		return rep, s.callError("rewind files", err)
	}
	return rep, nil
}
