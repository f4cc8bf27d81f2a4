package index

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// fieldsOf reads the fields the index stores beside an event (eventFields); ok false for an event that is not
// stored apart (ephemeral) or cannot be read. A full json.Unmarshal of every event was a seventh of a build's host
// CPU: scanFields reads the top level once and decodes only the fields named below, and hands anything it is not
// sure of (an escape it does not decode, a number that is not an integer, a key differing only in case) to
// json.Unmarshal, so the result is always Unmarshal's.
func fieldsOf(event []byte) (eventFields, bool) {
	e, sure := scanFields(event)
	if !sure {
		e = eventFields{}
		if json.Unmarshal(event, &e) != nil {
			return eventFields{}, false
		}
	}
	if e.Ephemeral {
		return eventFields{}, false
	}
	return e, true
}

// fieldNames are the keys eventFields (and its usageFields) decode, for the case-insensitive match Unmarshal does.
var fieldNames = []string{"kind", "time", "turn", "role", "text", "prompt", "name", "input", "output", "error",
	"parentToolUseId", "ephemeral", "messageId", "model", "inputTokens", "outputTokens", "cacheReadTokens",
	"cacheCreationTokens", "costUsd"}

// fieldScanner walks one event's JSON. The event was already checked as JSON when the reply carrying it was
// decoded, so skipped values are passed over, not validated.
type fieldScanner struct {
	b []byte
	i int
}

// scanFields decodes eventFields from event; sure false when json.Unmarshal must decide.
func scanFields(event []byte) (e eventFields, sure bool) {
	s := fieldScanner{b: event}
	if !s.consume('{') {
		return e, false
	}
	if s.consume('}') {
		return e, s.atEnd()
	}
	for {
		key, ok := s.key()
		if !ok || !s.consume(':') {
			return e, false
		}
		if !s.field(&e, key) {
			return e, false
		}
		if s.consume(',') {
			continue
		}
		if s.consume('}') {
			return e, s.atEnd()
		}
		return e, false
	}
}

func (s *fieldScanner) field(e *eventFields, key []byte) bool {
	switch string(key) { // no allocation: the compiler compares in place
	case "kind":
		return s.str(&e.Kind)
	case "time":
		return s.str(&e.Time)
	case "turn":
		return s.str(&e.Turn)
	case "role":
		return s.str(&e.Role)
	case "text":
		return s.str(&e.Text)
	case "prompt":
		return s.str(&e.Prompt)
	case "name":
		return s.str(&e.Name)
	case "output":
		return s.str(&e.Output)
	case "error":
		return s.str(&e.Error)
	case "parentToolUseId":
		return s.str(&e.ParentToolUseID)
	case "messageId":
		return s.str(&e.MessageID)
	case "model":
		return s.str(&e.Model)
	case "input":
		start := s.valueStart()
		if !s.skip() {
			return false
		}
		e.Input = json.RawMessage(s.b[start:s.i])
		return true
	case "ephemeral":
		return s.boolean(&e.Ephemeral)
	case "inputTokens":
		return s.integer(&e.InputTokens)
	case "outputTokens":
		return s.integer(&e.OutputTokens)
	case "cacheReadTokens":
		return s.integer(&e.CacheReadTokens)
	case "cacheCreationTokens":
		return s.integer(&e.CacheCreationTokens)
	case "costUsd":
		return s.cost(&e.CostUsd)
	}
	for _, name := range fieldNames {
		if len(name) == len(key) && bytes.EqualFold([]byte(name), key) {
			return false // Unmarshal would fill the field from it
		}
	}
	return s.skip()
}

func (s *fieldScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *fieldScanner) consume(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *fieldScanner) atEnd() bool {
	s.ws()
	return s.i == len(s.b)
}

func (s *fieldScanner) valueStart() int {
	s.ws()
	return s.i
}

// key reads an object key as it is written; one with an escape is left to Unmarshal.
func (s *fieldScanner) key() ([]byte, bool) {
	if !s.consume('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			s.i++
			return s.b[start : s.i-1], true
		case '\\':
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// null consumes a null (which leaves a field as it was, as Unmarshal does).
func (s *fieldScanner) null() bool {
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

func (s *fieldScanner) str(dst *string) bool {
	s.ws()
	if s.null() {
		return true
	}
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false // Unmarshal reports the type; the event is then not stored apart
	}
	s.i++
	start, ascii := s.i, true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw := s.b[start:s.i]
			s.i++
			if !ascii && !utf8.Valid(raw) {
				return false // Unmarshal puts U+FFFD for each bad byte
			}
			*dst = string(raw)
			return true
		case c == '\\':
			return s.escaped(dst, start)
		case c >= utf8.RuneSelf:
			ascii = false
		}
		s.i++
	}
	return false
}

// escaped decodes a string from start whose first escape is at s.i.
func (s *fieldScanner) escaped(dst *string, start int) bool {
	out := make([]byte, 0, s.i-start+64)
	out = append(out, s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c == '"' {
			s.i++
			if !utf8.Valid(out) {
				return false
			}
			*dst = string(out)
			return true
		}
		if c != '\\' {
			out = append(out, c)
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			return false
		}
		switch e := s.b[s.i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			r, ok := s.hex4(s.i + 2)
			if !ok || utf8.RuneLen(r) < 0 || (r >= 0xd800 && r < 0xe000) {
				return false // surrogates (pairs or lone) are Unmarshal's
			}
			out = utf8.AppendRune(out, r)
			s.i += 4
		default:
			return false
		}
		s.i += 2
	}
	return false
}

func (s *fieldScanner) hex4(at int) (rune, bool) {
	if at+4 > len(s.b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.b[at:at+4]), 16, 32)
	return rune(v), err == nil
}

func (s *fieldScanner) boolean(dst *bool) bool {
	s.ws()
	switch {
	case bytes.HasPrefix(s.b[s.i:], []byte("true")):
		*dst, s.i = true, s.i+4
	case bytes.HasPrefix(s.b[s.i:], []byte("false")):
		*dst, s.i = false, s.i+5
	default:
		return s.null()
	}
	return true
}

// number is the number at s.i as written.
func (s *fieldScanner) number() []byte {
	s.ws()
	start := s.i
	for s.i < len(s.b) && isNumberByte(s.b[s.i]) {
		s.i++
	}
	return s.b[start:s.i]
}

func (s *fieldScanner) integer(dst *int64) bool {
	s.ws()
	if s.null() {
		return true
	}
	n, err := strconv.ParseInt(string(s.number()), 10, 64)
	if err != nil {
		return false // a fraction or an exponent: Unmarshal's to refuse
	}
	*dst = n
	return true
}

func (s *fieldScanner) cost(dst **float64) bool {
	s.ws()
	if s.null() {
		*dst = nil
		return true
	}
	num := s.number()
	if len(num) == 0 {
		return false
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return false
	}
	*dst = &f
	return true
}

// skip passes over one value.
func (s *fieldScanner) skip() bool {
	s.ws()
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		return s.skipContainer()
	default: // a number or a literal
		start := s.i
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return s.i > start
			}
			s.i++
		}
		return s.i > start
	}
}

func (s *fieldScanner) skipString() bool {
	s.i++ // the opening quote
	for {
		j := bytes.IndexAny(s.b[s.i:], `"\`)
		if j < 0 {
			return false
		}
		s.i += j
		if s.b[s.i] == '"' {
			s.i++
			return true
		}
		s.i += 2 // an escape and the byte it escapes (\u's four digits are plain bytes)
	}
}

func (s *fieldScanner) skipContainer() bool {
	depth := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			if !s.skipString() {
				return false
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				s.i++
				return true
			}
		}
		s.i++
	}
	return false
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
