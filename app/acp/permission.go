package acp

import (
	"context"

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
// client's answer once the prompt was cancelled) or a client that cannot answer denies.
func (s *acpSession) askPermission(ev activity.Event) {
	ctx := s.a.ctxOr()
	answer := s.answerFor(ctx, ev)
	answer.By = activity.PermissionAuthorUser
	if _, err := s.s.AnswerWith(ctx, ev.RequestID, answer); err != nil {
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
	if ev.ToolKind == activity.ToolKindQuestion {
		if a, ok := s.askQuestions(ctx, call, ev.Input); ok {
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
	optionID, ok := s.choose(ctx, call, options)
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

// choose asks the client; false when it cancelled or could not answer.
func (s *acpSession) choose(ctx context.Context, call permissionToolCall, options []permissionOption) (string, bool) {
	var resp requestPermissionResponse
	req := requestPermissionRequest{SessionID: s.id, ToolCall: call, Options: options}
	if err := s.a.call(ctx, mRequestPermissn, req, &resp); err != nil {
		s.a.log.Warn().Err(err).Str("session", s.id).Msg("the client did not answer a permission request")
		return "", false
	}
	if resp.Outcome.Outcome != "selected" {
		return "", false
	}
	return resp.Outcome.OptionID, true
}
