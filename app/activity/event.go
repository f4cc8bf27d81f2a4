// Package activity is Baton's public boundary: the normalized events every front end (terminal, window, browser)
// consumes. Raw SDK shapes never leave the runtime; they are mapped into these by the sidecar.
package activity

import (
	"encoding/json"
	"time"
)

// Kind names what happened. Front ends branch on kinds, never on which agent produced them.
type Kind string

const (
	SessionStarted      Kind = "session.started"
	SessionClosed       Kind = "session.closed"
	SessionUpdated      Kind = "session.updated"
	TurnQueued          Kind = "turn.queued" // host-made: a prompt accepted, before its turn starts
	TurnStarted         Kind = "turn.started"
	TurnCompleted       Kind = "turn.completed"
	TurnFailed          Kind = "turn.failed"
	TurnCanceled        Kind = "turn.canceled"
	MessageDelta        Kind = "message.delta"
	MessageCompleted    Kind = "message.completed"
	ToolStarted         Kind = "tool.started"
	ToolUpdated         Kind = "tool.updated"
	ToolCompleted       Kind = "tool.completed"
	ToolFailed          Kind = "tool.failed"
	PermissionRequested Kind = "permission.requested"
	PermissionSettled   Kind = "permission.settled"
	PlanUpdated         Kind = "plan.updated"
	UsageUpdated        Kind = "usage.updated"
	ModelResolved       Kind = "model.resolved"
	CommandsUpdated     Kind = "commands.updated"
	ModelsUpdated       Kind = "models.updated"
	ContextUpdated      Kind = "context.updated"
	ProtocolError       Kind = "protocol.error"
	Unknown             Kind = "unknown"
)

// Kinds lists every kind this host understands, for validation.
var Kinds = []Kind{
	SessionStarted, SessionClosed, SessionUpdated, TurnQueued, TurnStarted, TurnCompleted, TurnFailed, TurnCanceled,
	MessageDelta, MessageCompleted, ToolStarted, ToolUpdated, ToolCompleted, ToolFailed, PermissionRequested,
	PermissionSettled, PlanUpdated, UsageUpdated, ModelResolved, CommandsUpdated, ModelsUpdated, ContextUpdated,
	ProtocolError, Unknown,
}

// Event is one normalized activity event. It is flat because the wire is flat (see app/protocol/PROTOCOL.md):
// each field name has one JSON type across all kinds, and a kind uses the fields its row in PROTOCOL.md names.
type Event struct {
	Kind      Kind      `json:"kind"`
	Session   string    `json:"session"`
	Turn      string    `json:"turn,omitempty"`
	Seq       uint64    `json:"seq,omitempty"`
	Time      time.Time `json:"time"`
	Ephemeral bool      `json:"ephemeral,omitempty"`

	// session.*
	Cwd            string `json:"cwd,omitempty"`
	Model          string `json:"model,omitempty"`
	PermissionMode string `json:"permissionMode,omitempty"`
	Resumed        *bool  `json:"resumed,omitempty"`
	ForkedFrom     string `json:"forkedFrom,omitempty"`
	Reason         string `json:"reason,omitempty"`
	Title          string `json:"title,omitempty"`
	Status         string `json:"status,omitempty"` // session.updated (ephemeral): requesting, compacting, idle

	// turn.*
	Prompt      string   `json:"prompt,omitempty"`
	UUID        string   `json:"uuid,omitempty"`
	Result      string   `json:"result,omitempty"`
	DurationMs  *int64   `json:"durationMs,omitempty"`
	NumTurns    *int     `json:"numTurns,omitempty"`
	CostUsd     *float64 `json:"costUsd,omitempty"`
	StopReason  string   `json:"stopReason,omitempty"`
	Disposition string   `json:"disposition,omitempty"`
	Code        string   `json:"code,omitempty"`
	Message     string   `json:"message,omitempty"`

	// message.*
	MessageID       string `json:"messageId,omitempty"`
	Index           *int   `json:"index,omitempty"`
	Block           string `json:"block,omitempty"`
	Role            string `json:"role,omitempty"`
	Text            string `json:"text,omitempty"`
	ParentToolUseID string `json:"parentToolUseId,omitempty"`

	// tool.* and permission.*
	ToolUseID      string            `json:"toolUseId,omitempty"`
	Name           string            `json:"name,omitempty"`
	Input          json.RawMessage   `json:"input,omitempty"`
	Output         string            `json:"output,omitempty"`
	Structured     json.RawMessage   `json:"structured,omitempty"`
	Error          string            `json:"error,omitempty"`
	FileBefore     *FileBefore       `json:"fileBefore,omitempty"`
	ElapsedSeconds *float64          `json:"elapsedSeconds,omitempty"`
	Summary        string            `json:"summary,omitempty"`
	RequestID      string            `json:"requestId,omitempty"`
	ToolName       string            `json:"toolName,omitempty"`
	Description    string            `json:"description,omitempty"`
	DecisionReason string            `json:"decisionReason,omitempty"`
	Suggestions    []json.RawMessage `json:"suggestions,omitempty"`
	Verdict        string            `json:"verdict,omitempty"`
	By             string            `json:"by,omitempty"`

	// plan.updated
	Items []PlanItem `json:"items,omitzero"` // an emptied plan still says so: []

	// usage.updated
	TurnOutputTokens    *int64 `json:"turnOutputTokens,omitempty"`
	InputTokens         *int64 `json:"inputTokens,omitempty"`
	OutputTokens        *int64 `json:"outputTokens,omitempty"`
	CacheReadTokens     *int64 `json:"cacheReadTokens,omitempty"`
	CacheCreationTokens *int64 `json:"cacheCreationTokens,omitempty"`
	ContextWindow       *int64 `json:"contextWindow,omitempty"`
	ContextTokens       *int64 `json:"contextTokens,omitempty"`

	// Side reads (commands.updated, models.updated, context.updated). The lists are omitted only when absent
	// (omitzero): an empty palette still reaches the frontend as [].
	Commands    []Command     `json:"commands,omitzero"`
	Models      []ModelOption `json:"models,omitzero"`
	TotalTokens *int64        `json:"totalTokens,omitempty"`
	MaxTokens   *int64        `json:"maxTokens,omitempty"`
	Percentage  *float64      `json:"percentage,omitempty"`

	// unknown
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Command is one entry of a session's command palette (Name without the slash).
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argumentHint,omitempty"`
}

// ModelOption is a model a session can run: Value is what a start or set-model request takes ("default", "sonnet",
// an id); ResolvedModel the id an alias stands for, when the CLI says.
type ModelOption struct {
	Value         string `json:"value"`
	DisplayName   string `json:"displayName"`
	Description   string `json:"description"`
	ResolvedModel string `json:"resolvedModel,omitempty"`
}

// FileBefore is a file's text before the session first changed it; Text is nil when the file did not exist.
type FileBefore struct {
	Path string  `json:"path"`
	Text *string `json:"text"`
}

// PlanItem is one entry of the agent's todo/task checklist.
type PlanItem struct {
	ID         string `json:"id"`
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm,omitempty"`
}

// Terminal reports whether the event ends its turn.
func (e Event) Terminal() bool {
	return e.Kind == TurnCompleted || e.Kind == TurnFailed || e.Kind == TurnCanceled
}
