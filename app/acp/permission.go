package acp

import (
	"context"
	"errors"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
)

// The options a tool's permission request offers, each one Baton verdict. Baton's runtime keeps no lasting deny
// rule, so "reject always" denies this call, says so to Claude, and the ACP session denies that tool's later
// requests itself, without asking, until the session ends.
var toolOptions = []permissionOption{
	{OptionID: optAllowOnce, Name: "Allow", Kind: optAllowOnce},
	{OptionID: optAllowAlways, Name: "Always allow", Kind: optAllowAlways},
	{OptionID: optRejectOnce, Name: "Reject", Kind: optRejectOnce},
	{OptionID: optRejectAlways, Name: "Always reject", Kind: optRejectAlways},
}

func verdictOf(optionID string) (session.PermissionAnswer, bool) {
	switch optionID {
	case optAllowOnce:
		return session.PermissionAnswer{Verdict: activity.VerdictAllow}, true
	case optAllowAlways:
		return session.PermissionAnswer{Verdict: activity.VerdictAllowAlways}, true
	case optRejectOnce:
		return session.PermissionAnswer{Verdict: activity.VerdictDeny}, true
	case optRejectAlways:
		return session.PermissionAnswer{Verdict: activity.VerdictDeny, Message: rejectedAlwaysMessage}, true
	}
	return session.PermissionAnswer{}, false
}

// planOptions answer a plan Claude offers to carry out: approved, the session leaves plan mode for the mode
// chosen; rejected, it keeps planning.
var planOptions = []permissionOption{
	{OptionID: optAllowAlways, Name: "Approve, and accept edits", Kind: optAllowAlways},
	{OptionID: optAllowOnce, Name: "Approve, and ask before edits", Kind: optAllowOnce},
	{OptionID: optRejectOnce, Name: "Keep planning", Kind: optRejectOnce},
}

func planVerdictOf(optionID string) (session.PermissionAnswer, bool) {
	switch optionID {
	case optAllowAlways:
		return session.PermissionAnswer{Verdict: activity.VerdictAllow, Mode: activity.PermissionModeAcceptEdits}, true
	case optAllowOnce:
		return session.PermissionAnswer{Verdict: activity.VerdictAllow, Mode: activity.PermissionModeDefault}, true
	case optRejectOnce, optRejectAlways:
		return session.PermissionAnswer{Verdict: activity.VerdictDeny, Message: "The user wants to keep planning."}, true
	}
	return session.PermissionAnswer{}, false
}

// askPermission puts a permission request to the client and settles it with the answer. A cancelled outcome (the
// client's answer once the prompt was cancelled) or a client that cannot answer denies. ctx ends when the request
// is settled otherwise or its turn ends (see track): then the client's request is withdrawn and nothing answered.
func (s *acpSession) askPermission(ctx context.Context, ev activity.Event) {
	defer s.withdraw(func(id string, _ pendingAsk) bool { return id == ev.RequestID })
	answer := s.answerFor(ctx, ev)
	if ctx.Err() != nil {
		return
	}
	answer.By = activity.PermissionAuthorUser
	// On the connection's context: the settlement this answer makes ends ctx (permission.settled) mid-call.
	if _, err := s.s.AnswerWith(s.a.ctxOr(), ev.RequestID, answer); err != nil {
		s.a.log.Warn().Err(err).Str("session", s.id).Msg("could not settle the permission request")
	}
}

func (s *acpSession) answerFor(ctx context.Context, ev activity.Event) session.PermissionAnswer {
	call := permissionToolCall{ToolCallID: ev.ToolUseID, Title: ev.ToolTitle, Kind: acpToolKind(ev.ToolKind),
		Status: toolPending, RawInput: ev.Input}
	if call.ToolCallID == "" {
		call.ToolCallID = ev.RequestID
	}
	if call.Title == "" {
		call.Title = ev.ToolName
	}
	ask := asking{requestID: ev.RequestID, call: call}
	if ev.ToolKind == activity.ToolKindQuestion {
		if a, ok := s.askQuestions(ctx, ask, ev.Input); ok {
			return a
		}
	}
	options, verdict := toolOptions, verdictOf
	plan := ev.ToolKind == activity.ToolKindPlanExit
	if plan {
		options, verdict = planOptions, planVerdictOf
	} else if s.rejectedAlways(ev.ToolName) {
		return session.PermissionAnswer{Verdict: activity.VerdictDeny, Message: rejectedAlwaysMessage}
	}
	optionID, ok := s.choose(ctx, ask, options)
	if !ok {
		return session.PermissionAnswer{Verdict: activity.VerdictDeny, Message: "The prompt was cancelled."}
	}
	a, ok := verdict(optionID)
	if !ok {
		return session.PermissionAnswer{Verdict: activity.VerdictDeny, Message: "The client chose no offered option."}
	}
	if optionID == optRejectAlways && !plan {
		s.rejectAlways(ev.ToolName)
	}
	return a
}

// rejectedAlwaysMessage is what Claude is told of a tool the client rejected always.
const rejectedAlwaysMessage = "The user rejected this tool and does not want it used again in this session."

func (s *acpSession) rejectedAlways(tool string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return tool != "" && s.rejected[tool]
}

func (s *acpSession) rejectAlways(tool string) {
	if tool == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rejected == nil {
		s.rejected = map[string]bool{}
	}
	s.rejected[tool] = true
}

// asking is one of Claude's permission requests as the client is asked it: the request, and the call shown.
type asking struct {
	requestID string
	call      permissionToolCall
}

// choose asks the client; false when it cancelled or could not answer, or the request was withdrawn.
func (s *acpSession) choose(ctx context.Context, ask asking, options []permissionOption) (string, bool) {
	var resp requestPermissionResponse
	req := requestPermissionRequest{SessionID: s.id, ToolCall: ask.call, Options: options}
	err := s.a.call(ctx, mRequestPermissn, req, &resp, func(id int64, write func() error) error {
		return s.putTo(ask.requestID, id, write)
	})
	s.withdrawn(ask.requestID)
	if err != nil {
		if ctx.Err() == nil {
			s.a.log.Warn().Err(err).Str("session", s.id).Msg("the client did not answer a permission request")
		}
		return "", false
	}
	if resp.Outcome.Outcome != "selected" {
		return "", false
	}
	return resp.Outcome.OptionID, true
}

// pendingAsk is a permission request being put to the client.
type pendingAsk struct {
	turn   string
	cancel context.CancelFunc
	client int64 // our request to the client in flight (0: none)
}

// errWithdrawn refuses a request to the client for a permission request that no longer waits.
var errWithdrawn = errors.New("the permission request was settled otherwise or its turn ended")

// putTo writes our request to the client for requestID, as client request id, unless it was withdrawn meanwhile:
// under the session's lock, so a withdrawal either comes first (nothing is written) or finds the id to cancel.
func (s *acpSession) putTo(requestID string, id int64, write func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.asks[requestID]
	if !ok {
		return errWithdrawn
	}
	p.client = id
	s.asks[requestID] = p
	return write()
}

// withdrawn forgets requestID's request to the client once it was answered (or failed): nothing to cancel.
func (s *acpSession) withdrawn(requestID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.asks[requestID]; ok {
		p.client = 0
		s.asks[requestID] = p
	}
}

// track registers ev's request on the pump, before it goes aside to be asked, so a later event that settles it
// (permission.settled, its turn's end) always finds it; the context it returns ends then.
func (s *acpSession) track(ev activity.Event) context.Context {
	ctx, cancel := context.WithCancel(s.a.ctxOr())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asks == nil {
		s.asks = map[string]pendingAsk{}
	}
	s.asks[ev.RequestID] = pendingAsk{turn: ev.Turn, cancel: cancel}
	return ctx
}

// withdraw stops asking the client of the requests that match.
func (s *acpSession) withdraw(match func(requestID string, p pendingAsk) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.withdrawLocked(match)
}

// withdrawLocked ends the matching requests' contexts and tells the client ($/cancel_request) of those it is
// being asked, before whatever the caller does next under the lock (a turn's end answers its prompt after).
func (s *acpSession) withdrawLocked(match func(requestID string, p pendingAsk) bool) {
	for id, p := range s.asks {
		if !match(id, p) {
			continue
		}
		p.cancel()
		delete(s.asks, id)
		if p.client != 0 {
			s.a.notify(mCancelRequest, cancelRequestParams{RequestID: p.client})
		}
	}
}
