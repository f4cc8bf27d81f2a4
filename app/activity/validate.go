package activity

import (
	"errors"
	"fmt"
)

var knownKinds = func() map[Kind]bool {
	m := make(map[Kind]bool, len(Kinds))
	for _, k := range Kinds {
		m[k] = true
	}
	return m
}()

// Validate checks that an event has what its kind requires, so a malformed sidecar line is refused at the
// boundary instead of surfacing as a half-empty row in a front end.
func (e Event) Validate() error {
	if !knownKinds[e.Kind] {
		return fmt.Errorf("unknown event kind %q", e.Kind)
	}
	if e.Kind != ProtocolError && e.Session == "" {
		return fmt.Errorf("%s event without a session", e.Kind)
	}
	if e.Time.IsZero() {
		return fmt.Errorf("%s event without a time", e.Kind)
	}
	missing := func(field string) error { return fmt.Errorf("%s event without %s", e.Kind, field) }
	switch e.Kind {
	case SessionStarted:
		if e.Cwd == "" {
			return missing("cwd")
		}
		if e.Resumed == nil {
			return missing("resumed")
		}
	case SessionClosed:
		if e.Reason == "" {
			return missing("reason")
		}
	case TurnQueued, TurnStarted, TurnCompleted, TurnFailed, TurnCanceled:
		if e.Turn == "" {
			return missing("turn")
		}
		if e.Kind == TurnFailed && (e.Code == "" || e.Message == "") {
			return missing("code and message")
		}
		if e.Kind == TurnCanceled && e.Disposition == "" {
			return missing("disposition")
		}
	case MessageDelta:
		if !e.Ephemeral {
			return errors.New("message.delta must be ephemeral")
		}
		if e.Block == "" {
			return missing("block")
		}
	case MessageCompleted:
		if e.Role != "assistant" && e.Role != "user" && e.Role != "thinking" {
			return fmt.Errorf("message.completed with role %q", e.Role)
		}
	case ToolStarted, ToolUpdated, ToolCompleted, ToolFailed, ToolInterrupted:
		if e.ToolUseID == "" {
			return missing("toolUseId")
		}
	case PermissionRequested:
		if e.RequestID == "" || e.ToolName == "" {
			return missing("requestId and toolName")
		}
	case PermissionSettled:
		if e.RequestID == "" {
			return missing("requestId")
		}
		switch e.Verdict {
		case "allow", "allow_always", "deny":
		default:
			return fmt.Errorf("permission.settled with verdict %q", e.Verdict)
		}
		if e.By == "" {
			return missing("by")
		}
	case ModelResolved:
		if e.Model == "" {
			return missing("model")
		}
	case UsageUpdated:
		if e.TurnOutputTokens == nil {
			return missing("turnOutputTokens")
		}
	case CommandsUpdated:
		if e.Commands == nil {
			return missing("commands")
		}
	case ModelsUpdated:
		if e.Models == nil {
			return missing("models")
		}
	case ContextUpdated:
		if e.TotalTokens == nil || e.MaxTokens == nil || e.Percentage == nil {
			return missing("totalTokens, maxTokens and percentage")
		}
	case ProtocolError:
		if e.Code == "" {
			return missing("code")
		}
	case Unknown:
		if len(e.Raw) == 0 {
			return missing("raw")
		}
	default:
		// The other kinds require no field beyond the session and time checked above.
	}
	return nil
}
