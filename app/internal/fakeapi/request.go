package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Request is the part of one POST /v1/messages body that scripts need, decoded with typed structs.
// Requests are shared read-only between the server and its callers; don't modify them.
type Request struct {
	Target    string    // request target as received, e.g. "/v1/messages?beta=true"
	Betas     []string  // the anthropic-beta header, split on commas
	Model     string    // echoed in the reply
	Stream    bool      // false for probes such as the one after set_model
	MaxTokens int       // max_tokens as sent
	System    string    // every system text block, joined with "\n"
	Messages  []Message // the whole conversation, oldest first
	ToolNames []string  // names from "tools", in order
	Raw       []byte    // the body exactly as received
}

// Message is one conversation entry. A string content is decoded as a single text block.
type Message struct {
	Role    string
	Content []ContentBlock
}

// ContentBlock is one block of a message; which fields are set depends on Type.
type ContentBlock struct {
	Type      string          // text | thinking | tool_use | tool_result | image | …
	Text      string          // text
	Thinking  string          // thinking
	ID        string          // tool_use
	Name      string          // tool_use
	Input     json.RawMessage // tool_use
	ToolUseID string          // tool_result
	IsError   bool            // tool_result
	Content   string          // tool_result content flattened to text (string or text blocks)
}

// ToolResult is a tool_result block reduced to what scripts compare. Content is the flattened text
// without the <system-reminder> the CLI appends to the last result of a batch, trimmed.
type ToolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

// flexText decodes a field that the API allows as either a string or an array of blocks with text
// (system, tool_result content). Non-text blocks are skipped.
type flexText string

func (f *flexText) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*f = ""
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexText(s)
		return nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &blocks); err != nil {
		return fmt.Errorf("want a string or an array of blocks: %w", err)
	}
	parts := make([]string, 0, len(blocks))
	for _, bl := range blocks {
		if bl.Type == "text" {
			parts = append(parts, bl.Text)
		}
	}
	*f = flexText(strings.Join(parts, "\n"))
	return nil
}

// UnmarshalJSON accepts content as a string or as an array of blocks.
func (m *Message) UnmarshalJSON(b []byte) error {
	var w struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	m.Role = w.Role
	m.Content = nil
	c := bytes.TrimSpace(w.Content)
	switch {
	case len(c) == 0 || bytes.Equal(c, []byte("null")):
		return nil
	case c[0] == '"':
		var s string
		if err := json.Unmarshal(c, &s); err != nil {
			return err
		}
		m.Content = []ContentBlock{{Type: "text", Text: s}}
		return nil
	}
	return json.Unmarshal(c, &m.Content)
}

// UnmarshalJSON flattens tool_result content, which may be a string or an array of blocks.
func (cb *ContentBlock) UnmarshalJSON(b []byte) error {
	var w struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		Thinking  string          `json:"thinking"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Content   flexText        `json:"content"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*cb = ContentBlock{
		Type: w.Type, Text: w.Text, Thinking: w.Thinking, ID: w.ID, Name: w.Name, Input: w.Input,
		ToolUseID: w.ToolUseID, IsError: w.IsError, Content: string(w.Content),
	}
	return nil
}

// DecodeRequest decodes a /v1/messages body. target and beta are the request target and the
// anthropic-beta header; they are only recorded.
func DecodeRequest(body []byte, target, beta string) (*Request, error) {
	var w struct {
		Model     string    `json:"model"`
		Stream    bool      `json:"stream"`
		MaxTokens int       `json:"max_tokens"`
		System    flexText  `json:"system"`
		Messages  []Message `json:"messages"`
		Tools     []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("decode messages request: %w", err)
	}
	r := &Request{
		Target: target, Model: w.Model, Stream: w.Stream, MaxTokens: w.MaxTokens,
		System: string(w.System), Messages: w.Messages, Raw: body,
	}
	for _, t := range w.Tools {
		r.ToolNames = append(r.ToolNames, t.Name)
	}
	for _, b := range strings.Split(beta, ",") {
		if b = strings.TrimSpace(b); b != "" {
			r.Betas = append(r.Betas, b)
		}
	}
	return r, nil
}

// reminderRE matches the <system-reminder> sections Claude Code adds to user messages (environment,
// date, available skills…). They are context, not something the user typed.
var reminderRE = regexp.MustCompile(`(?s)<system-reminder>.*?</system-reminder>`)

// userText joins a message's text blocks with "\n", leaving out system reminders.
func userText(m Message) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type != "text" {
			continue
		}
		if t := strings.TrimSpace(reminderRE.ReplaceAllString(b.Text, "")); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// lastUser returns the index of the last user message, or -1.
func (r *Request) lastUser() int {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return i
		}
	}
	return -1
}

// LastUserImages counts the image blocks of the last user message.
func (r *Request) LastUserImages() int {
	i := r.lastUser()
	if i < 0 {
		return 0
	}
	n := 0
	for _, b := range r.Messages[i].Content {
		if b.Type == "image" {
			n++
		}
	}
	return n
}

// LastUserText is the text the user typed in the last user message (text blocks joined with "\n",
// system reminders left out); "" when there is none.
func (r *Request) LastUserText() string {
	if i := r.lastUser(); i >= 0 {
		return userText(r.Messages[i])
	}
	return ""
}

// LastUserRawText is every text block of the last user message joined with "\n", system reminders included
// (Claude Code files its own notices, such as a background task's notification, inside them).
func (r *Request) LastUserRawText() string {
	i := r.lastUser()
	if i < 0 {
		return ""
	}
	var parts []string
	for _, b := range r.Messages[i].Content {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// UserTexts returns the typed text of every user message that has any, in order. Messages holding
// only tool_results (or only system reminders) are skipped.
func (r *Request) UserTexts() []string {
	return userTextsBefore(r.Messages, len(r.Messages))
}

// userTextsBefore is UserTexts over msgs[:end]; end < 0 (no user message) gives none.
func userTextsBefore(msgs []Message, end int) []string {
	if end < 0 {
		return nil
	}
	var out []string
	for _, m := range msgs[:end] {
		if m.Role != "user" {
			continue
		}
		if t := userText(m); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// LastToolResults returns the tool_result blocks of the last user message, in order.
func (r *Request) LastToolResults() []ToolResult {
	i := r.lastUser()
	if i < 0 {
		return nil
	}
	var out []ToolResult
	for _, b := range r.Messages[i].Content {
		if b.Type == "tool_result" {
			content := strings.TrimSpace(reminderRE.ReplaceAllString(b.Content, ""))
			out = append(out, ToolResult{ToolUseID: b.ToolUseID, Content: content, IsError: b.IsError})
		}
	}
	return out
}

var workdirRE = regexp.MustCompile(`(?m)(?:Primary working directory|Working directory):[ \t]*(\S.*?)[ \t]*$`)

// WorkingDir returns the working directory Claude Code announced, or "" if none is found. The CLI
// 2.1.332 puts "Primary working directory: <dir>" in a system reminder of the first user message,
// not in the system prompt; both places are searched, the system prompt first.
func (r *Request) WorkingDir() string {
	if m := workdirRE.FindStringSubmatch(r.System); m != nil {
		return m[1]
	}
	for _, msg := range r.Messages {
		if msg.Role != "user" {
			continue
		}
		for _, b := range msg.Content {
			if b.Type != "text" {
				continue
			}
			if m := workdirRE.FindStringSubmatch(b.Text); m != nil {
				return m[1]
			}
		}
	}
	return ""
}
