package console

import (
	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/discovery"
	"github.com/baton-console/baton/app/protocol"
)

// Capabilities tell the frontend what this transport offers, so it branches on abilities, not on where it runs.
type Capabilities struct {
	Transport     string `json:"transport"`
	FolderPicker  bool   `json:"folderPicker"`
	Notifications bool   `json:"notifications"`
	Version       string `json:"version"`
}

// Empty is the params or result of calls that carry nothing.
type Empty struct{}

// StartParams opens, resumes or forks a session.
type StartParams struct {
	Cwd            string                  `json:"cwd"`
	Model          string                  `json:"model,omitempty"`
	PermissionMode activity.PermissionMode `json:"permissionMode,omitempty"`
	Resume         string                  `json:"resume,omitempty"`
	ForkFrom       string                  `json:"forkFrom,omitempty"`
	At             string                  `json:"at,omitempty"`
}

// SessionRef names a session.
type SessionRef struct {
	Session string `json:"session"`
}

// PromptParams sends a prompt.
type PromptParams struct {
	Session string `json:"session"`
	Prompt  string `json:"prompt"`
}

// PromptResult names the turn the prompt became.
type PromptResult struct {
	Turn   string `json:"turn"`
	Queued bool   `json:"queued"`
}

// CancelParams cancels a turn (the running one when Turn is empty). The budgets default to the host's (3000 ms
// each); a zero interrupt budget given explicitly closes the query at once.
type CancelParams struct {
	Session           string `json:"session"`
	Turn              string `json:"turn,omitempty"`
	InterruptBudgetMs *int   `json:"interruptBudgetMs,omitempty"`
	DrainBudgetMs     *int   `json:"drainBudgetMs,omitempty"`
}

// CancelResult says what the cancel found and did: exactly one disposition, the turn it concerns, the phase it
// was found in, and for provider_active whether the stop was forced.
type CancelResult struct {
	Disposition activity.CancelDisposition `json:"disposition"`
	Turn        string                     `json:"turn,omitempty"`
	Phase       activity.CancelPhase       `json:"phase"`
	Forced      bool                       `json:"forced"`
}

// GuideResult says which turn the guidance went to, and whether it steered a running one.
type GuideResult struct {
	Turn   string `json:"turn"`
	Guided bool   `json:"guided"`
}

// AnswerParams settles a permission request: AskUserQuestion's answers, or the mode an approved plan (ExitPlanMode)
// continues in, come with an allow.
type AnswerParams struct {
	Session   string                    `json:"session"`
	RequestID string                    `json:"requestId"`
	Verdict   activity.Verdict          `json:"verdict"`
	Message   string                    `json:"message,omitempty"`
	Answers   []activity.QuestionAnswer `json:"answers,omitempty"`
	Mode      activity.PermissionMode   `json:"mode,omitempty"`
}

// AnswerResult is false when the request had already been settled; the answer recorded then comes with it.
type AnswerResult struct {
	Settled bool                      `json:"settled"`
	Verdict activity.Verdict          `json:"verdict,omitempty"`
	Answers []activity.QuestionAnswer `json:"answers,omitempty"`
	Mode    activity.PermissionMode   `json:"mode,omitempty"`
}

// ModelParams changes the requested model.
type ModelParams struct {
	Session string `json:"session"`
	Model   string `json:"model"`
}

// ModeParams changes the permission mode.
type ModeParams struct {
	Session string                  `json:"session"`
	Mode    activity.PermissionMode `json:"mode"`
}

// ModeResult is the mode the CLI reports.
type ModeResult struct {
	Mode activity.PermissionMode `json:"mode"`
}

// ListParams lists stored sessions.
type ListParams struct {
	Cwd   string `json:"cwd,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// SessionInfo is a stored session, marked when it is open in this Baton, with what Baton keeps about it (pinned,
// archived, the session it was forked from).
type SessionInfo struct {
	protocol.SessionInfo
	Live     bool   `json:"live"`
	Pinned   bool   `json:"pinned"`
	Archived bool   `json:"archived"`
	ForkOf   string `json:"forkOf,omitempty"`
}

// ListResult is newest first.
type ListResult struct {
	Sessions []SessionInfo `json:"sessions"`
}

// HistoryParams asks for a page of a stored session's history.
type HistoryParams struct {
	Session string `json:"session"`
	Cwd     string `json:"cwd,omitempty"`
	Before  *int   `json:"before,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

// HistoryResult holds positions Start … Start+len(Events)-1 of Total.
type HistoryResult struct {
	Events []activity.Event `json:"events"`
	Total  int              `json:"total"`
	Start  int              `json:"start"`
}

// RewindParams rewinds files to a user message.
type RewindParams struct {
	Session string `json:"session"`
	Message string `json:"message"`
	DryRun  bool   `json:"dryRun"`
}

// ConversationRewindParams reopens a session at a message.
type ConversationRewindParams struct {
	Session string `json:"session"`
	Message string `json:"message"`
}

// NotifyParams is a native notification.
type NotifyParams struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

// FolderResult is the picked folder, nil when the person canceled.
type FolderResult struct {
	Path *string `json:"path"`
}

// LiveSession is an open session with its lasting events so far.
type LiveSession struct {
	Session        string                  `json:"session"`
	Cwd            string                  `json:"cwd"`
	RequestedModel string                  `json:"requestedModel"`
	EffectiveModel string                  `json:"effectiveModel"`
	PermissionMode activity.PermissionMode `json:"permissionMode"`
	// State is "asleep" while the session holds no process (its next prompt wakes it), else "awake".
	State  activity.SessionState `json:"state"`
	Events []activity.Event      `json:"events"`
}

// ProvisionState is where getting the claude executable stands.
type ProvisionState struct {
	State   string   `json:"state"` // unknown | checking | downloading | ready | failed
	Message string   `json:"message,omitempty"`
	Hints   []string `json:"hints,omitempty"`
	Bytes   int64    `json:"bytes,omitempty"`
	Total   int64    `json:"total,omitempty"`
	Rate    float64  `json:"rate,omitempty"`
	Source  string   `json:"source,omitempty"`
	Path    string   `json:"path,omitempty"`
	Version string   `json:"version,omitempty"`
}

// Snapshot is everything that lasts, for a first load or a reconnect.
type Snapshot struct {
	Sessions     []LiveSession  `json:"sessions"`
	Provisioning ProvisionState `json:"provisioning"`
	Auth         AuthState      `json:"auth"`
	// SessionIdleSeconds is how long an open session may sit idle before it sleeps (0: never).
	SessionIdleSeconds int `json:"sessionIdleSeconds"`
}

// IdleParams sets how long an open session may sit idle before it sleeps, in seconds (0: never).
type IdleParams struct {
	Seconds int `json:"seconds"`
}

// RewindResult is the SDK's answer to a files rewind, as the sidecar relays it.
type RewindResult = protocol.RewindFilesReply

// ModelList is the composer's model list for the signed-in account: {models, account}.
type ModelList = discovery.Models

// StopTaskParams names a background task to stop.
type StopTaskParams struct {
	Session string `json:"session"`
	TaskID  string `json:"taskId"`
}

// BackgroundParams names foreground work to move to the background (all of it when ToolUseID is empty).
type BackgroundParams struct {
	Session   string `json:"session"`
	ToolUseID string `json:"toolUseId,omitempty"`
}

// BackgroundResult says whether any work moved to the background.
type BackgroundResult struct {
	Backgrounded bool `json:"backgrounded"`
}
