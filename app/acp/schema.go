package acp

import "encoding/json"

// The Agent Client Protocol v1 messages Baton reads and writes, as the SDK's schema/v1/schema.json names them.
// Optional fields are omitted when unset: the protocol reads an absent capability as "not supported".

// ProtocolVersion is the ACP major version served.
const ProtocolVersion = 1

// Method names (client → agent, then agent → client).
const (
	mInitialize      = "initialize"
	mAuthenticate    = "authenticate"
	mSessionNew      = "session/new"
	mSessionLoad     = "session/load"
	mSessionList     = "session/list"
	mSessionResume   = "session/resume"
	mSessionClose    = "session/close"
	mSessionPrompt   = "session/prompt"
	mSessionCancel   = "session/cancel"
	mSessionSetMode  = "session/set_mode"
	mSessionSetOpt   = "session/set_config_option"
	mCancelRequest   = "$/cancel_request"
	mSessionUpdate   = "session/update"
	mRequestPermissn = "session/request_permission"
)

type implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type initializeRequest struct {
	ProtocolVersion    *int               `json:"protocolVersion"`
	ClientInfo         *implementation    `json:"clientInfo,omitempty"`
	ClientCapabilities clientCapabilities `json:"clientCapabilities"`
}

type clientCapabilities struct {
	Auth struct {
		Terminal bool `json:"terminal"`
	} `json:"auth"`
}

type promptCapabilities struct {
	Image           bool `json:"image"`
	Audio           bool `json:"audio"`
	EmbeddedContext bool `json:"embeddedContext"`
}

type emptyObject struct{}

type sessionCapabilities struct {
	List   *emptyObject `json:"list,omitempty"`
	Resume *emptyObject `json:"resume,omitempty"`
	Close  *emptyObject `json:"close,omitempty"`
}

type mcpCapabilities struct {
	HTTP bool `json:"http"`
	SSE  bool `json:"sse"`
}

type agentCapabilities struct {
	LoadSession         bool                `json:"loadSession"`
	PromptCapabilities  promptCapabilities  `json:"promptCapabilities"`
	McpCapabilities     mcpCapabilities     `json:"mcpCapabilities"`
	SessionCapabilities sessionCapabilities `json:"sessionCapabilities"`
}

// authMethod is a sign-in: type "terminal" runs the agent's own command with Args in the client's terminal; no
// type is one the agent carries out (here: it says how to sign in).
type authMethod struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Type        string   `json:"type,omitempty"`
	Args        []string `json:"args,omitempty"`
}

type authenticateRequest struct {
	MethodID string `json:"methodId"`
}

type initializeResponse struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities agentCapabilities `json:"agentCapabilities"`
	AgentInfo         implementation    `json:"agentInfo"`
	AuthMethods       []authMethod      `json:"authMethods"`
}

// mcpServer is one server the client asks for: stdio (no type; a command) or http / sse (a url).
type mcpServer struct {
	Name    string      `json:"name"`
	Type    string      `json:"type,omitempty"`
	Command string      `json:"command,omitempty"`
	Args    []string    `json:"args,omitempty"`
	Env     []nameValue `json:"env,omitempty"`
	URL     string      `json:"url,omitempty"`
	Headers []nameValue `json:"headers,omitempty"`
}

type nameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type newSessionRequest struct {
	Cwd        string      `json:"cwd"`
	McpServers []mcpServer `json:"mcpServers"`
}

type sessionMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type sessionModeState struct {
	CurrentModeID  string        `json:"currentModeId"`
	AvailableModes []sessionMode `json:"availableModes"`
}

type configSelectOption struct {
	Value       string `json:"value"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type configOption struct {
	ID           string               `json:"id"`
	Name         string               `json:"name"`
	Category     string               `json:"category,omitempty"`
	Type         string               `json:"type"`
	CurrentValue string               `json:"currentValue"`
	Options      []configSelectOption `json:"options"`
}

type sessionSetup struct {
	Modes         *sessionModeState `json:"modes,omitempty"`
	ConfigOptions []configOption    `json:"configOptions,omitempty"`
}

type newSessionResponse struct {
	SessionID string `json:"sessionId"`
	sessionSetup
}

type sessionRef struct {
	SessionID string `json:"sessionId"`
}

type loadSessionRequest struct {
	SessionID  string      `json:"sessionId"`
	Cwd        string      `json:"cwd"`
	McpServers []mcpServer `json:"mcpServers"`
}

type listSessionsRequest struct {
	Cwd    string `json:"cwd,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

type sessionInfo struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

type listSessionsResponse struct {
	Sessions []sessionInfo `json:"sessions"`
}

type setModeRequest struct {
	SessionID string `json:"sessionId"`
	ModeID    string `json:"modeId"`
}

type setConfigOptionRequest struct {
	SessionID string          `json:"sessionId"`
	ConfigID  string          `json:"configId"`
	Value     json.RawMessage `json:"value"`
}

type setConfigOptionResponse struct {
	ConfigOptions []configOption `json:"configOptions"`
}

// contentBlock is the ContentBlock union (text, image, audio, resource_link, resource), one struct by "type".
type contentBlock struct {
	Type     string            `json:"type"`
	Text     string            `json:"text,omitempty"`
	Data     string            `json:"data,omitempty"`
	MimeType string            `json:"mimeType,omitempty"`
	URI      string            `json:"uri,omitempty"`
	Name     string            `json:"name,omitempty"`
	Resource *embeddedResource `json:"resource,omitempty"`
}

type embeddedResource struct {
	URI      string `json:"uri"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

type promptRequest struct {
	SessionID string         `json:"sessionId"`
	Prompt    []contentBlock `json:"prompt"`
}

// StopReason values of a prompt's answer.
const (
	stopEndTurn   = "end_turn"
	stopMaxTokens = "max_tokens"
	stopMaxTurns  = "max_turn_requests"
	stopRefusal   = "refusal"
	stopCancelled = "cancelled"
)

type promptResponse struct {
	StopReason string `json:"stopReason"`
}

// The sessionUpdate discriminators Baton sends.
const (
	upUserChunk    = "user_message_chunk"
	upAgentChunk   = "agent_message_chunk"
	upThoughtChunk = "agent_thought_chunk"
	upToolCall     = "tool_call"
	upToolUpdate   = "tool_call_update"
	upPlan         = "plan"
	upCommands     = "available_commands_update"
	upMode         = "current_mode_update"
	upConfig       = "config_option_update"
	upSessionInfo  = "session_info_update"
	upUsage        = "usage_update"
)

// Tool call statuses.
const (
	toolPending    = "pending"
	toolInProgress = "in_progress"
	toolCompleted  = "completed"
	toolFailed     = "failed"
)

type toolCallContent struct {
	Type    string        `json:"type"` // content | diff
	Content *contentBlock `json:"content,omitempty"`
	Path    string        `json:"path,omitempty"`
	OldText *string       `json:"oldText,omitempty"`
	NewText *string       `json:"newText,omitempty"`
}

type toolCallLocation struct {
	Path string `json:"path"`
}

type planEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

type availableCommand struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Input       *commandInput `json:"input,omitempty"`
}

type commandInput struct {
	Hint string `json:"hint"`
}

type cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// update is one SessionUpdate variant; each carries its own "sessionUpdate" discriminator.
type update interface{ variant() string }

type chunkUpdate struct {
	SessionUpdate string       `json:"sessionUpdate"`
	Content       contentBlock `json:"content"`
	MessageID     string       `json:"messageId,omitempty"`
}

// toolUpdate is tool_call (Title required) and tool_call_update (only what changed).
type toolUpdate struct {
	SessionUpdate string             `json:"sessionUpdate"`
	ToolCallID    string             `json:"toolCallId"`
	Title         string             `json:"title,omitempty"`
	Kind          string             `json:"kind,omitempty"`
	Status        string             `json:"status,omitempty"`
	Content       []toolCallContent  `json:"content,omitempty"`
	Locations     []toolCallLocation `json:"locations,omitempty"`
	RawInput      json.RawMessage    `json:"rawInput,omitempty"`
	RawOutput     json.RawMessage    `json:"rawOutput,omitempty"`
}

type planUpdate struct {
	SessionUpdate string      `json:"sessionUpdate"`
	Entries       []planEntry `json:"entries"`
}

type commandsUpdate struct {
	SessionUpdate     string             `json:"sessionUpdate"`
	AvailableCommands []availableCommand `json:"availableCommands"`
}

type modeUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	CurrentModeID string `json:"currentModeId"`
}

type configUpdate struct {
	SessionUpdate string         `json:"sessionUpdate"`
	ConfigOptions []configOption `json:"configOptions"`
}

type usageUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	Used          int64  `json:"used"`
	Size          int64  `json:"size"`
	Cost          *cost  `json:"cost,omitempty"`
}

type sessionInfoUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	Title         string `json:"title"`
}

func (u chunkUpdate) variant() string       { return u.SessionUpdate }
func (u toolUpdate) variant() string        { return u.SessionUpdate }
func (u planUpdate) variant() string        { return u.SessionUpdate }
func (u commandsUpdate) variant() string    { return u.SessionUpdate }
func (u modeUpdate) variant() string        { return u.SessionUpdate }
func (u configUpdate) variant() string      { return u.SessionUpdate }
func (u usageUpdate) variant() string       { return u.SessionUpdate }
func (u sessionInfoUpdate) variant() string { return u.SessionUpdate }

type sessionNotification struct {
	SessionID string `json:"sessionId"`
	Update    update `json:"update"`
}

// Permission option kinds, and the option ids Baton offers (one per kind).
const (
	optAllowOnce    = "allow_once"
	optAllowAlways  = "allow_always"
	optRejectOnce   = "reject_once"
	optRejectAlways = "reject_always"
)

type permissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

type permissionToolCall struct {
	ToolCallID string             `json:"toolCallId"`
	Title      string             `json:"title,omitempty"`
	Kind       string             `json:"kind,omitempty"`
	Status     string             `json:"status,omitempty"`
	RawInput   json.RawMessage    `json:"rawInput,omitempty"`
	Locations  []toolCallLocation `json:"locations,omitempty"`
}

// cancelRequestParams are $/cancel_request's: the id of our request the client need no longer answer.
type cancelRequestParams struct {
	RequestID int64 `json:"requestId"`
}

type requestPermissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  permissionToolCall `json:"toolCall"`
	Options   []permissionOption `json:"options"`
}

type permissionOutcome struct {
	Outcome  string `json:"outcome"` // selected | cancelled
	OptionID string `json:"optionId,omitempty"`
}

type requestPermissionResponse struct {
	Outcome permissionOutcome `json:"outcome"`
}
