package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"
)

// Block types a Reply may hold.
const (
	BlockText     = "text"
	BlockThinking = "thinking"
	BlockToolUse  = "tool_use"
)

// Reply is what a Script answers to one request.
type Reply struct {
	// Blocks are the assistant content, in order.
	Blocks []Block
	// Status other than 0 or 200 sends no message at all but an Anthropic error body with this HTTP status.
	Status int
	// ErrorType and ErrorMessage fill the error body; empty means a default for Status
	// (401 authentication_error "invalid x-api-key", 400 invalid_request_error, 429 rate_limit_error, 5xx api_error).
	ErrorType, ErrorMessage string
	// DeltaDelay is the pause before each delta of a text block (streaming only).
	DeltaDelay time.Duration
	// DeltaCount splits each text block into exactly this many text_delta events (0 = small chunks).
	DeltaCount int
	// FlushEvery sends the stream in writes of this many events (0 or 1: each event is flushed on its own).
	// A benchmark streaming thousands of deltas as fast as it can sets it, so the scripted API's own write per
	// event does not load the machine the measured processes share (a remote API costs this machine nothing).
	FlushEvery int
	// Hold, when set, pauses the stream after the first text delta until it is closed (or the client goes
	// away): a turn that stays mid-stream exactly as long as a test wants.
	Hold <-chan struct{}
	// HoldStart, when set, sends nothing (no headers, no byte) until it is closed or the client goes away: a
	// test decides what happens before the response's first byte.
	HoldStart <-chan struct{}
	// HoldContent, when set, pauses a stream after its message_start (before any content) until it is closed or
	// the client goes away.
	HoldContent <-chan struct{}
	// Withhold sends nothing at all (no headers, no event) until the client goes away: a response that never
	// comes, for tests of what waits on one (a follow-up after a background task).
	Withhold bool
	// StopReason overrides the stop_reason; empty means tool_use when a tool_use block is present, else end_turn.
	StopReason string
	// Headers are sent with the response, a message's or an error's (RateLimitHeaders makes a plan's).
	Headers http.Header
}

// Block is one content block of a Reply.
type Block struct {
	Type      string          // BlockText, BlockThinking or BlockToolUse
	Text      string          // the text, or the thinking text
	ToolName  string          // tool_use only
	ToolInput json.RawMessage // tool_use only; a JSON object (nil = {})
	ID        string          // tool_use id; empty = the server assigns a unique toolu_fake_<n>
	// EstimatedTokens (thinking only), when set, is the API's own count of the block, carried on its deltas as
	// estimated_tokens (split over them), which Claude Code takes over its own guess from the text.
	EstimatedTokens int
}

// TextReply is a reply holding a single text block.
func TextReply(text string) Reply {
	return Reply{Blocks: []Block{{Type: BlockText, Text: text}}}
}

// ErrorReply is a reply that fails with the given HTTP status and the default error type and message.
func ErrorReply(status int) Reply {
	return Reply{Status: status}
}

// isError tells whether the reply is an HTTP error instead of a message.
func (r Reply) isError() bool {
	return r.Status != 0 && r.Status != http.StatusOK
}

// stopReason applies the default described on Reply.StopReason.
func (r Reply) stopReason() string {
	if r.StopReason != "" {
		return r.StopReason
	}
	for _, b := range r.Blocks {
		if b.Type == BlockToolUse {
			return "tool_use"
		}
	}
	return "end_turn"
}

// outputTokens is a plausible token count: about four bytes a token, at least one.
func (r Reply) outputTokens() int {
	n := 0
	for _, b := range r.Blocks {
		n += len(b.Text) + len(b.ToolInput)
	}
	return max(1, n/4)
}

// errorType returns the Anthropic error type for the reply's status.
func (r Reply) errorType() string {
	if r.ErrorType != "" {
		return r.ErrorType
	}
	switch s := r.Status; {
	case s == 400:
		return "invalid_request_error"
	case s == 401:
		return "authentication_error"
	case s == 403:
		return "permission_error"
	case s == 404:
		return "not_found_error"
	case s == 413:
		return "request_too_large"
	case s == 429:
		return "rate_limit_error"
	case s >= 500:
		return "api_error"
	default:
		return "invalid_request_error"
	}
}

func (r Reply) errorMessage() string {
	if r.ErrorMessage != "" {
		return r.ErrorMessage
	}
	switch s := r.Status; {
	case s == 401:
		return "invalid x-api-key"
	case s == 400:
		return "fake invalid request"
	case s == 429:
		return "fake rate limit"
	case s >= 500:
		return "fake server error"
	default:
		return "fake error " + http.StatusText(s)
	}
}

// Wire shapes of the Messages API, shared by the JSON and the SSE renderings.
type (
	apiError struct {
		Type      string       `json:"type"` // "error"
		Error     apiErrorBody `json:"error"`
		RequestID string       `json:"request_id,omitempty"`
	}
	apiErrorBody struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	apiUsage struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	}
	apiMessage struct {
		ID           string       `json:"id"`
		Type         string       `json:"type"` // "message"
		Role         string       `json:"role"` // "assistant"
		Model        string       `json:"model"`
		Content      []apiContent `json:"content"`
		StopReason   *string      `json:"stop_reason"`
		StopSequence *string      `json:"stop_sequence"`
		Usage        apiUsage     `json:"usage"`
	}
	// apiContent is a content block; omitempty keeps each type to its own fields, except the few
	// that the API always sends (text, thinking+signature, input), which are set explicitly.
	apiContent struct {
		Type      string           `json:"type"`
		Text      *string          `json:"text,omitempty"`
		Thinking  *string          `json:"thinking,omitempty"`
		Signature *string          `json:"signature,omitempty"`
		ID        string           `json:"id,omitempty"`
		Name      string           `json:"name,omitempty"`
		Input     *json.RawMessage `json:"input,omitempty"`
	}
)

func newAPIError(r Reply, requestID string) apiError {
	return apiError{Type: "error", Error: apiErrorBody{Type: r.errorType(), Message: r.errorMessage()}, RequestID: requestID}
}

// toolInput returns the block's input as compact JSON, {} when empty.
func (b Block) toolInput() json.RawMessage {
	if len(bytes.TrimSpace(b.ToolInput)) == 0 {
		return json.RawMessage("{}")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b.ToolInput); err != nil {
		return b.ToolInput // sent as given; the script's caller wanted exactly this
	}
	return buf.Bytes()
}

// fakeSignature stands in for a thinking signature; the CLI passes it back but never checks it.
func fakeSignature(msgID string, index int) string {
	return fmt.Sprintf("fakesig-%s-%d", msgID, index)
}

// fullContent renders a block complete, as in a non-streaming message.
func fullContent(b Block, msgID string, index int) apiContent {
	switch b.Type {
	case BlockThinking:
		sig := fakeSignature(msgID, index)
		return apiContent{Type: BlockThinking, Thinking: &b.Text, Signature: &sig}
	case BlockToolUse:
		in := b.toolInput()
		return apiContent{Type: BlockToolUse, ID: b.ID, Name: b.ToolName, Input: &in}
	default:
		return apiContent{Type: BlockText, Text: &b.Text}
	}
}

// startContent renders a block as content_block_start announces it: empty, filled in by deltas.
func startContent(b Block) apiContent {
	empty := ""
	switch b.Type {
	case BlockThinking:
		return apiContent{Type: BlockThinking, Thinking: &empty, Signature: &empty}
	case BlockToolUse:
		in := json.RawMessage("{}")
		return apiContent{Type: BlockToolUse, ID: b.ID, Name: b.ToolName, Input: &in}
	default:
		return apiContent{Type: BlockText, Text: &empty}
	}
}

// jsonMessage renders a reply as a complete non-streaming message.
func jsonMessage(r Reply, msgID, model string, inputTokens int) apiMessage {
	content := make([]apiContent, 0, len(r.Blocks))
	for i, b := range r.Blocks {
		content = append(content, fullContent(b, msgID, i))
	}
	stop := r.stopReason()
	return apiMessage{
		ID: msgID, Type: "message", Role: "assistant", Model: model, Content: content, StopReason: &stop,
		Usage: apiUsage{InputTokens: inputTokens, OutputTokens: r.outputTokens()},
	}
}

// splitText cuts s into pieces on rune boundaries: exactly count pieces when count > 0
// (some pieces are empty when s has fewer runes than count), otherwise pieces of about size bytes.
func splitText(s string, count, size int) []string {
	if count <= 0 {
		var out []string
		for len(s) > size {
			cut := size
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			if cut == 0 {
				_, cut = utf8.DecodeRuneInString(s)
			}
			out = append(out, s[:cut])
			s = s[cut:]
		}
		return append(out, s)
	}
	runes := []rune(s)
	out := make([]string, count)
	for i := range count {
		lo, hi := len(runes)*i/count, len(runes)*(i+1)/count
		out[i] = string(runes[lo:hi])
	}
	return out
}
