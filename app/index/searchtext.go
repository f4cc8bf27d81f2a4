package index

import (
	"bytes"
	"encoding/json"
	"strings"

	segjson "github.com/segmentio/encoding/json"
)

// Role is what part of a conversation a search hit is in.
type Role string

const (
	RoleUser       Role = "user"
	RoleAssistant  Role = "assistant"
	RoleThinking   Role = "thinking"
	RoleTool       Role = "tool"        // a tool call's name and input
	RoleToolOutput Role = "tool output" // what a tool returned, or why it failed
	RoleSummary    Role = "summary"     // a compaction's summary of what came before
	RoleCommand    Role = "command"     // a slash command's output
)

// eventFields are the fields of an event the index reads when it stores the event: the text search finds, by
// kind, and the usage records (usagerows.go). One decoding serves both.
type eventFields struct {
	Kind            string          `json:"kind"`
	Time            string          `json:"time"`
	Turn            string          `json:"turn"`
	Role            string          `json:"role"`
	Text            string          `json:"text"`
	Prompt          string          `json:"prompt"`
	Name            string          `json:"name"`
	Input           json.RawMessage `json:"input"`
	Output          string          `json:"output"`
	Error           string          `json:"error"`
	ParentToolUseID string          `json:"parentToolUseId"`
	Ephemeral       bool            `json:"ephemeral"`
	usageFields
}

// searchDoc is an event's searchable text: who said it and what.
type searchDoc struct {
	role     Role
	text     string
	time     string
	subagent bool
}

// fieldsOf decodes an event's fields with segmentio's encoding/json, which decodes as the standard library does at
// a third of its CPU: json.Unmarshal of every event was a seventh of the host's build (PERFORMANCE.md).
func fieldsOf(event []byte) (eventFields, bool) {
	var e eventFields
	if segjson.Unmarshal(event, &e) != nil || e.Ephemeral {
		return eventFields{}, false
	}
	return e, true
}

// searchTextOf reads an event's searchable text; ok false for an event that has none (or is not stored).
func searchTextOf(event []byte) (searchDoc, bool) {
	e, ok := fieldsOf(event)
	if !ok {
		return searchDoc{}, false
	}
	return searchDocOf(e)
}

func searchDocOf(e eventFields) (searchDoc, bool) {
	d := searchDoc{time: e.Time, subagent: e.ParentToolUseID != ""}
	switch e.Kind {
	case "turn.started":
		d.role, d.text = RoleUser, e.Prompt
	case "message.completed":
		d.role, d.text = messageRole(e.Role), e.Text
	case "tool.started":
		d.role, d.text = RoleTool, e.Name+" "+jsonStrings(e.Input)
	case "tool.completed":
		d.role, d.text = RoleToolOutput, e.Output
	case "tool.failed":
		d.role, d.text = RoleToolOutput, e.Error
	case "compact.summary":
		d.role, d.text = RoleSummary, e.Text
	case "command.output":
		d.role, d.text = RoleCommand, e.Text
	default: // the other kinds carry no text a person wrote or read
		return searchDoc{}, false
	}
	return d, strings.TrimSpace(d.text) != ""
}

func messageRole(r string) Role {
	switch r {
	case "thinking":
		return RoleThinking
	case "user":
		return RoleUser
	default:
		return RoleAssistant
	}
}

// jsonStrings is every string value in a JSON value (a tool's input), in order and keys left out, one per line:
// the paths, commands and contents a person searches for. Read as tokens, so no shape is assumed.
func jsonStrings(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var b strings.Builder
	// inObject[i]: the i-th open container is an object; key[i]: its next string is a key.
	var inObject, key []bool
	for {
		tok, err := dec.Token()
		if err != nil {
			return b.String()
		}
		top := len(inObject) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top >= 0 && inObject[top] {
					key[top] = true // the container was a value; a key comes next
				}
				inObject, key = append(inObject, t == '{'), append(key, t == '{')
			default:
				inObject, key = inObject[:top], key[:top]
			}
			continue
		case string:
			if top >= 0 && inObject[top] && key[top] {
				key[top] = false
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t)
		}
		if top >= 0 && inObject[top] {
			key[top] = true
		}
	}
}
