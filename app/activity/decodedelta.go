package activity

import (
	"strconv"
	"unicode/utf8"
)

// decodeDelta reads a message.delta, the event a streamed reply sends thousands of times, without the reflecting
// decoder (issue 32: that decode was most of the host's cost per piece). It takes only the plain shapes the sidecar
// writes: strings without escapes or control bytes, valid UTF-8 (the standard decoder would rewrite invalid
// bytes), true/false, and an integer index. Anything else (an escape, a null, a wrong type) reports !ok, and the
// caller decodes the event the general way, so this path never accepts or refuses a line differently from it.
// The keys were checked against the kind's schema before.
func decodeDelta(data []byte) (Event, bool) {
	ev := Event{Kind: MessageDelta}
	i := skipSpace(data, 0) + 1 // past the '{' topLevel found
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return Event{}, false
		}
		keyEnd := skipString(data, i)
		if keyEnd < 0 {
			return Event{}, false
		}
		key := data[i+1 : keyEnd-1]
		i = skipSpace(data, keyEnd) + 1 // past the ':'
		i = skipSpace(data, i)
		valueEnd := skipValue(data, i)
		if valueEnd < 0 || !ev.setDeltaField(key, data[i:valueEnd]) {
			return Event{}, false
		}
		i = skipSpace(data, valueEnd)
		if i >= len(data) {
			return Event{}, false
		}
		if data[i] == '}' {
			return ev, true
		}
		i++ // past the ','
	}
}

// setDeltaField sets the message.delta field key from its raw JSON value, if the value has the plain shape.
func (e *Event) setDeltaField(key, value []byte) bool {
	switch string(key) {
	case "kind":
		body, ok := plainBody(value)
		return ok && string(body) == string(MessageDelta)
	case "block":
		// A closed set: the constant, not a copy of it.
		body, ok := plainBody(value)
		for _, b := range MessageBlockValues {
			if ok && string(body) == string(b) {
				e.Block = b
				return true
			}
		}
		return false
	case "time":
		// The standard decoder's own parse of a time, so both paths accept exactly the same stamps.
		return e.Time.UnmarshalJSON(value) == nil
	case "ephemeral":
		switch string(value) {
		case "true":
			e.Ephemeral = true
		case "false":
			e.Ephemeral = false
		default:
			return false
		}
		return true
	case "index":
		n, ok := plainInt(value)
		if ok {
			e.Index = &n
		}
		return ok
	}
	s, ok := plainString(value)
	if !ok {
		return false
	}
	switch string(key) {
	case "session":
		e.Session = s
	case "turn":
		e.Turn = s
	case "messageId":
		e.MessageID = s
	case "text":
		e.Text = s
	default:
		return false
	}
	return true
}

// plainString is a JSON string value's text when it needs no unescaping and is what the standard decoder would
// return byte for byte.
func plainString(value []byte) (string, bool) {
	body, ok := plainBody(value)
	if !ok {
		return "", false
	}
	return string(body), true
}

// plainBody is the bytes between a JSON string value's quotes when they need no unescaping and are valid UTF-8.
func plainBody(value []byte) ([]byte, bool) {
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return nil, false
	}
	body := value[1 : len(value)-1]
	for _, c := range body {
		if c < 0x20 || c == '\\' || c == '"' {
			return nil, false
		}
	}
	return body, utf8.Valid(body)
}

// plainInt is a JSON integer without sign tricks: -?(0|[1-9][0-9]*), in int64's range.
func plainInt(value []byte) (int64, bool) {
	digits := value
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(value), 10, 64)
	return n, err == nil
}
