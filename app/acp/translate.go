package acp

import (
	"encoding/json"
	"path/filepath"

	"github.com/baton-console/baton/app/activity"
)

// translator turns one session's Baton events into ACP session updates. It keeps what a later event needs: which
// messages streamed (their completion repeats the text), and the last context figures (usage_update needs both).
// replay is a stored conversation being loaded: prompts become user_message_chunk, completions carry the text.
type translator struct {
	replay   bool
	cwd      string // the catalogue's paths are relative to it; ACP's are absolute
	streamed map[string]bool
	diffs    map[string]bool // tool calls whose content is a diff, kept when they complete
	used     *int64
	size     *int64
	cost     float64
}

func newTranslator(replay bool, cwd string) *translator {
	return &translator{replay: replay, cwd: cwd, streamed: map[string]bool{}, diffs: map[string]bool{}}
}

// updates maps one event. Kinds that are Baton's own bookkeeping (turn phases, hooks, receipts' business) map to
// nothing: an ACP client has no place for them, and the prompt's answer carries the turn's end.
func (t *translator) updates(ev activity.Event) []update {
	switch ev.Kind {
	case activity.MessageDelta:
		return t.delta(ev)
	case activity.MessageCompleted:
		return t.completed(ev)
	case activity.TurnStarted:
		if t.replay && ev.Origin == "" {
			return promptChunks(ev)
		}
		return nil
	case activity.ToolStarted:
		ev.Path = t.abs(ev.Path)
		u := toolStarted(ev)
		if len(u.Content) > 0 {
			t.diffs[ev.ToolUseID] = true
		}
		return []update{u}
	case activity.ToolUpdated:
		return []update{toolUpdate{SessionUpdate: upToolUpdate, ToolCallID: ev.ToolUseID, Status: toolInProgress}}
	case activity.ToolCompleted:
		u := toolDone(ev)
		if t.diffs[ev.ToolUseID] {
			u.Content = nil // the diff stays what the client shows; the output is in rawOutput
		}
		delete(t.diffs, ev.ToolUseID)
		return []update{u}
	case activity.ToolFailed:
		return []update{toolEnded(ev.ToolUseID, ev.Error)}
	case activity.ToolInterrupted:
		return []update{toolEnded(ev.ToolUseID, "interrupted ("+string(ev.Cause)+")")}
	case activity.PlanUpdated:
		return []update{plan(ev.Items)}
	case activity.CommandsUpdated:
		return []update{commands(ev.Commands)}
	case activity.SessionUpdated:
		return t.sessionUpdated(ev)
	case activity.UsageUpdated:
		return t.usage(ev.ContextTokens, ev.ContextWindow)
	case activity.ContextUpdated:
		return t.usage(ev.TotalTokens, ev.MaxTokens)
	case activity.TurnCompleted, activity.TurnFailed:
		if ev.CostUsd != nil {
			t.cost += *ev.CostUsd
			return t.usage(nil, nil)
		}
		return nil
	case activity.SessionStarted, activity.SessionClosed, activity.ModelResolved, activity.ModelsUpdated,
		activity.GoalUpdated, activity.SessionCompacted, activity.CompactSummary, activity.HookRan,
		activity.TurnAccepted, activity.TurnGuided, activity.TurnCanceled, activity.APIError,
		activity.TranscriptUnreadable, activity.ProtocolError, activity.Unknown, activity.ToolCalled,
		activity.PermissionRequested, activity.PermissionSettled, activity.TasksUpdated, activity.TaskStarted,
		activity.TaskUpdated, activity.TaskCompleted, activity.TaskOutput, activity.CommandRan, activity.CommandOutput, activity.TurnQueued,
		activity.LimitUpdated, activity.UsageRecorded:
		// The session and the prompt loop act on some of these (models, permissions, ends); none is an update.
		return nil
	}
	return nil
}

// promptChunks replays a prompt: its text, then each image the history kept the bytes of.
func promptChunks(ev activity.Event) []update {
	var out []update
	if ev.Prompt != "" {
		out = append(out, chunk(upUserChunk, ev.Prompt, ev.UUID))
	}
	for _, img := range ev.Images {
		if img.Data != "" {
			out = append(out, chunkUpdate{SessionUpdate: upUserChunk, MessageID: ev.UUID,
				Content: contentBlock{Type: "image", MimeType: img.MediaType, Data: img.Data}})
		}
	}
	return out
}

// abs makes a tool's path absolute against the session's folder.
func (t *translator) abs(path string) string {
	if path == "" || filepath.IsAbs(path) || t.cwd == "" {
		return path
	}
	return filepath.Join(t.cwd, path)
}

func chunk(variant, text, messageID string) chunkUpdate {
	return chunkUpdate{SessionUpdate: variant, Content: contentBlock{Type: "text", Text: text}, MessageID: messageID}
}

func (t *translator) delta(ev activity.Event) []update {
	if ev.Text == "" {
		return nil
	}
	t.streamed[ev.MessageID] = true
	switch ev.Block {
	case activity.MessageBlockThinking:
		return []update{chunk(upThoughtChunk, ev.Text, ev.MessageID)}
	case activity.MessageBlockText:
		return []update{chunk(upAgentChunk, ev.Text, ev.MessageID)}
	}
	return nil
}

// completed sends a message's text when it did not stream (history, or a CLI that sent it whole). The person's
// own messages are the client's to show live; on load they are the conversation.
func (t *translator) completed(ev activity.Event) []update {
	if ev.Text == "" || (ev.MessageID != "" && t.streamed[ev.MessageID]) {
		return nil
	}
	switch ev.Role {
	case activity.MessageRoleAssistant:
		return []update{chunk(upAgentChunk, ev.Text, ev.MessageID)}
	case activity.MessageRoleThinking:
		return []update{chunk(upThoughtChunk, ev.Text, ev.MessageID)}
	case activity.MessageRoleUser:
		if t.replay && ev.ParentToolUseID == "" {
			return []update{chunk(upUserChunk, ev.Text, ev.UUID)}
		}
	}
	return nil
}

func (t *translator) sessionUpdated(ev activity.Event) []update {
	var out []update
	if ev.PermissionMode != "" {
		out = append(out, modeUpdate{SessionUpdate: upMode, CurrentModeID: string(ev.PermissionMode)})
	}
	if ev.Title != "" {
		out = append(out, sessionInfoUpdate{SessionUpdate: upSessionInfo, Title: ev.Title})
	}
	return out
}

// usage sends usage_update once both the context's size and its use are known; nil keeps the last figure.
func (t *translator) usage(used, size *int64) []update {
	if used != nil {
		t.used = used
	}
	if size != nil {
		t.size = size
	}
	if t.used == nil || t.size == nil || *t.size <= 0 {
		return nil
	}
	u := usageUpdate{SessionUpdate: upUsage, Used: *t.used, Size: *t.size}
	if t.cost > 0 {
		u.Cost = &cost{Amount: t.cost, Currency: "USD"}
	}
	return []update{u}
}

func plan(items []activity.PlanItem) planUpdate {
	entries := make([]planEntry, 0, len(items))
	for _, it := range items {
		entries = append(entries, planEntry{Content: it.Content, Priority: "medium", Status: planStatus(it.Status)})
	}
	return planUpdate{SessionUpdate: upPlan, Entries: entries}
}

func planStatus(s activity.PlanStatus) string {
	switch s {
	case activity.PlanStatusInProgress:
		return "in_progress"
	case activity.PlanStatusCompleted:
		return "completed"
	case activity.PlanStatusPending:
		return "pending"
	}
	return "pending"
}

func commands(list []activity.CommandEntry) commandsUpdate {
	out := make([]availableCommand, 0, len(list))
	for _, c := range list {
		cmd := availableCommand{Name: c.Name, Description: c.Description}
		if c.ArgumentHint != "" {
			cmd.Input = &commandInput{Hint: c.ArgumentHint}
		}
		out = append(out, cmd)
	}
	return commandsUpdate{SessionUpdate: upCommands, AvailableCommands: out}
}

// rawString is a tool's text output as the JSON value rawOutput carries.
func rawString(s string) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	return b
}
