package acp

import (
	"encoding/json"

	"github.com/baton-console/baton/app/activity"
)

// acpToolKind maps the catalogue's kind (stamped on tool.started and permission.requested) to ACP's.
func acpToolKind(k activity.ToolKind) string {
	switch k {
	case activity.ToolKindShell:
		return "execute"
	case activity.ToolKindRead:
		return "read"
	case activity.ToolKindSearch:
		return "search"
	case activity.ToolKindFetch:
		return "fetch"
	case activity.ToolKindWrite, activity.ToolKindEdit:
		return "edit"
	case activity.ToolKindPlan:
		return "think"
	case activity.ToolKindPlanExit:
		return "switch_mode"
	case activity.ToolKindAgent, activity.ToolKindQuestion, activity.ToolKindMcp, activity.ToolKindOther:
		return "other"
	}
	return "other"
}

// editInput is what a file-changing tool's input says about the change (Claude Code's Write and Edit inputs).
type editInput struct {
	Content   *string `json:"content"`
	OldString *string `json:"old_string"`
	NewString *string `json:"new_string"`
}

// diffOf is the change a write or edit makes, for the client's diff view: the whole file for a write (against
// what it held before, when the catalogue captured it), the replaced span for an edit.
func diffOf(ev activity.Event) []toolCallContent {
	if ev.Path == "" || len(ev.Input) == 0 {
		return nil
	}
	var in editInput
	if err := json.Unmarshal(ev.Input, &in); err != nil {
		return nil
	}
	switch ev.ToolKind {
	case activity.ToolKindWrite:
		if in.Content == nil {
			return nil
		}
		d := toolCallContent{Type: "diff", Path: ev.Path, NewText: in.Content}
		if ev.FileBefore != nil {
			d.OldText = ev.FileBefore.Text
		}
		return []toolCallContent{d}
	case activity.ToolKindEdit:
		if in.NewString == nil {
			return nil
		}
		return []toolCallContent{{Type: "diff", Path: ev.Path, OldText: in.OldString, NewText: in.NewString}}
	case activity.ToolKindShell, activity.ToolKindRead, activity.ToolKindSearch, activity.ToolKindFetch,
		activity.ToolKindAgent, activity.ToolKindPlan, activity.ToolKindQuestion, activity.ToolKindPlanExit,
		activity.ToolKindMcp, activity.ToolKindOther:
		return nil
	}
	return nil
}

func locations(path string) []toolCallLocation {
	if path == "" {
		return nil
	}
	return []toolCallLocation{{Path: path}}
}

func toolTitle(ev activity.Event) string {
	if ev.Title != "" {
		return ev.Title
	}
	return ev.Name
}

func toolStarted(ev activity.Event) toolUpdate {
	return toolUpdate{SessionUpdate: upToolCall, ToolCallID: ev.ToolUseID, Title: toolTitle(ev),
		Kind: acpToolKind(ev.ToolKind), Status: toolInProgress, Content: diffOf(ev), Locations: locations(ev.Path),
		RawInput: ev.Input}
}

func toolDone(ev activity.Event) toolUpdate {
	u := toolUpdate{SessionUpdate: upToolUpdate, ToolCallID: ev.ToolUseID, Status: toolCompleted}
	if ev.Output != "" {
		u.RawOutput = rawString(ev.Output)
		u.Content = []toolCallContent{{Type: "content", Content: &contentBlock{Type: "text", Text: ev.Output}}}
	}
	return u
}

func toolEnded(id, why string) toolUpdate {
	u := toolUpdate{SessionUpdate: upToolUpdate, ToolCallID: id, Status: toolFailed}
	if why != "" {
		u.RawOutput = rawString(why)
		u.Content = []toolCallContent{{Type: "content", Content: &contentBlock{Type: "text", Text: why}}}
	}
	return u
}
