package runner

import "encoding/json"

// StopReason says why a run stopped.
type StopReason string

const (
	// StopNatural: the model finished.
	StopNatural StopReason = "natural"
	// StopBudget: the step budget (MaxTurns) or the cost budget (MaxBudgetUSD) ran out.
	StopBudget StopReason = "budget"
	// StopError: an API, sign-in, sidecar or tool-infrastructure failure, or the context was canceled;
	// Result.Err says which.
	StopError StopReason = "error"
)

// Failure says why a tool call failed.
type Failure string

const (
	FailureNone Failure = ""
	// FailureHandler: the handler returned an error.
	FailureHandler Failure = "handler_error"
	// FailurePanic: the handler panicked.
	FailurePanic Failure = "handler_panic"
	// FailureTimeout: the handler overran Spec.ToolTimeout.
	FailureTimeout Failure = "handler_timeout"
	// FailureSchema: the input failed the tool's schema and never reached the handler.
	FailureSchema Failure = "schema"
	// FailureUnavailable: the model asked for a tool this run does not offer (a Claude Code built-in such as
	// Bash); nothing ran.
	FailureUnavailable Failure = "unavailable"
	// FailureCanceled: the run ended (canceled, or stopped) before the call finished.
	FailureCanceled Failure = "canceled"
)

// Result is what a run did and why it stopped.
type Result struct {
	StopReason StopReason `json:"stopReason"`
	// Detail is the stop as the SDK reported it: "max_turns" or "budget" for StopBudget, the failure code for
	// StopError ("api_error", "auth", "sidecar_exited", "canceled", …).
	Detail string `json:"detail,omitempty"`
	// Err is the cause of StopError (nil otherwise); Error is its text, for JSON.
	Err   error  `json:"-"`
	Error string `json:"error,omitempty"`
	// Text is the model's final text.
	Text string `json:"text"`
	// Turns is the number of steps the SDK counted.
	Turns int `json:"turns"`
	// ToolCalls is every tool call the model made, in order, including refused ones.
	ToolCalls []ToolCall `json:"toolCalls"`
	// ToolFailures counts the failed calls: handler errors, panics and timeouts, schema rejections, and calls of
	// tools the run does not offer.
	ToolFailures int     `json:"toolFailures"`
	CostUSD      float64 `json:"costUsd"`
	Usage        Usage   `json:"usage"`
}

// ToolCall is one call the model made.
type ToolCall struct {
	// ID is the model's tool_use id.
	ID string `json:"id"`
	// Name is the tool's name: one of Spec.Tools for host tools, else what the model asked for (e.g. "Bash").
	Name string `json:"name"`
	// Host says the tool is one of Spec.Tools.
	Host   bool            `json:"host"`
	Input  json.RawMessage `json:"input"`
	Output string          `json:"output"`
	// Value is the handler's Output.Value.
	Value   any     `json:"value,omitempty"`
	Failed  bool    `json:"failed"`
	Failure Failure `json:"failure,omitempty"`
}

// Usage is the run's token count as the SDK reported it.
type Usage struct {
	InputTokens         int64 `json:"inputTokens"`
	OutputTokens        int64 `json:"outputTokens"`
	CacheReadTokens     int64 `json:"cacheReadTokens"`
	CacheCreationTokens int64 `json:"cacheCreationTokens"`
}
