package protocol

import (
	"encoding/json"

	"github.com/baton-console/baton/app/activity"
)

// Request types (host → sidecar).
const (
	ReqStart             = "start"
	ReqExec              = "exec"
	ReqCancel            = "cancel"
	ReqPermission        = "permission"
	ReqSetModel          = "set_model"
	ReqSetPermissionMode = "set_permission_mode"
	ReqClose             = "close"
	ReqListSessions      = "list_sessions"
	ReqHistory           = "history"
)

// StartRequest opens a session: new (Session only), resume (Resume), or fork (ForkFrom, new Session id).
type StartRequest struct {
	Session        string `json:"session"`
	Cwd            string `json:"cwd"`
	Model          string `json:"model,omitempty"`
	PermissionMode string `json:"permissionMode,omitempty"`
	Resume         bool   `json:"resume,omitempty"`
	ForkFrom       string `json:"forkFrom,omitempty"`
	At             string `json:"at,omitempty"`
	Executable     string `json:"executable,omitempty"`
}

// StartReply echoes the session and the claude executable the sidecar chose.
type StartReply struct {
	Session    string `json:"session"`
	Executable string `json:"executable"`
}

// ExecRequest sends a prompt as turn Turn.
type ExecRequest struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
	Prompt  string `json:"prompt"`
}

// ExecReply says whether the prompt waits behind another turn.
type ExecReply struct {
	Queued bool `json:"queued"`
}

// CancelRequest cancels Turn, or the running turn when Turn is empty.
type CancelRequest struct {
	Session string `json:"session"`
	Turn    string `json:"turn,omitempty"`
}

// Cancel dispositions.
const (
	DispositionInterrupted = "interrupted"
	DispositionDequeued    = "dequeued"
	DispositionIdle        = "idle"
)

// CancelReply says what the cancel did.
type CancelReply struct {
	Disposition string `json:"disposition"`
}

// Permission verdicts.
const (
	VerdictAllow       = "allow"
	VerdictAllowAlways = "allow_always"
	VerdictDeny        = "deny"
)

// PermissionRequest answers a permission.requested event.
type PermissionRequest struct {
	Session   string `json:"session"`
	RequestID string `json:"requestId"`
	Verdict   string `json:"verdict"`
	Message   string `json:"message,omitempty"`
	By        string `json:"by,omitempty"` // "user" (default) or "policy"; echoed in permission.settled
}

// PermissionReply is false when the request had already been settled (nothing changed).
type PermissionReply struct {
	Settled bool `json:"settled"`
}

// SetModelRequest changes the requested model; "default" means the CLI's default.
type SetModelRequest struct {
	Session string `json:"session"`
	Model   string `json:"model"`
}

// SetPermissionModeRequest changes the permission mode.
type SetPermissionModeRequest struct {
	Session string `json:"session"`
	Mode    string `json:"mode"`
}

// SetPermissionModeReply carries the mode the CLI reports, which may differ from the one asked for.
type SetPermissionModeReply struct {
	Mode string `json:"mode"`
}

// SessionRequest names a session (close).
type SessionRequest struct {
	Session string `json:"session"`
}

// ListSessionsRequest lists sessions, across projects unless Cwd is set.
type ListSessionsRequest struct {
	Cwd   string `json:"cwd,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// SessionInfo describes a stored session.
type SessionInfo struct {
	Session      string `json:"session"`
	Title        string `json:"title"`
	Cwd          string `json:"cwd,omitempty"`
	LastModified int64  `json:"lastModified"`
	CreatedAt    int64  `json:"createdAt,omitempty"`
	GitBranch    string `json:"gitBranch,omitempty"`
	FirstPrompt  string `json:"firstPrompt,omitempty"`
}

// ListSessionsReply is newest first.
type ListSessionsReply struct {
	Sessions []SessionInfo `json:"sessions"`
}

// HistoryRequest reads a page of a stored session's mapped history: at most Limit events ending just before
// position Before (the newest page when Before is nil; everything when Limit is 0).
type HistoryRequest struct {
	Session string `json:"session"`
	Cwd     string `json:"cwd,omitempty"`
	Before  *int   `json:"before,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

// HistoryReply holds positions Start … Start+len(Events)-1 of Total, mapped exactly as live events (kept raw
// here; the session layer decodes and stamps them).
type HistoryReply struct {
	Events []json.RawMessage `json:"events"`
	Total  int               `json:"total"`
	Start  int               `json:"start"`
}

// Empty is the payload of requests and replies that carry nothing.
type Empty struct{}

// ReqRewindFiles restores files to their state at a user message (the SDK's file checkpoints).
const ReqRewindFiles = "rewind_files"

// RewindFilesRequest rewinds (or, with DryRun, only measures rewinding) files to Message, a user message uuid.
type RewindFilesRequest struct {
	Session string `json:"session"`
	Message string `json:"message"`
	DryRun  bool   `json:"dryRun"`
}

// RewindFilesReply is the SDK's answer.
type RewindFilesReply struct {
	CanRewind    bool     `json:"canRewind"`
	Error        string   `json:"error,omitempty"`
	FilesChanged []string `json:"filesChanged,omitempty"`
	Insertions   int      `json:"insertions,omitempty"`
	Deletions    int      `json:"deletions,omitempty"`
}

// ReqDiscoverModels asks a hidden query (no turn, no API request) which models this sign-in offers.
const ReqDiscoverModels = "discover_models"

// DiscoverModelsRequest runs the hidden query in Cwd with the claude at Executable (as in StartRequest).
type DiscoverModelsRequest struct {
	Cwd        string `json:"cwd"`
	Executable string `json:"executable,omitempty"`
}

// DiscoverModelsReply lists the models in the CLI's order.
type DiscoverModelsReply struct {
	Models []activity.ModelOption `json:"models"`
}
