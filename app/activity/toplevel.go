package activity

import "errors"

// errNotObject is what topLevel reports for anything but one JSON object.
var errNotObject = errors.New("not a JSON object")

// topLevel lists the keys of a JSON object and the raw value of its "kind", without decoding anything else.
// DecodeEvent checks the keys against the kind's schema before the one decode it does; this scan replaces a
// decode into a map of raw values, which cost as much as the event's own decode on every stream piece. Keys
// are raw (between their quotes, escapes left as they are: the schema's names have none, so an escaped key can
// never pass for one). Malformed input yields errNotObject or a wrong list, never a panic; the decode that
// follows refuses it either way.
func topLevel(data []byte, keys [][]byte) ([][]byte, []byte, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, nil, errNotObject
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return end(data, i, keys, nil)
	}
	var kind []byte
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, nil, errNotObject
		}
		keyEnd := skipString(data, i)
		if keyEnd < 0 {
			return nil, nil, errNotObject
		}
		key := data[i+1 : keyEnd-1]
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return nil, nil, errNotObject
		}
		i = skipSpace(data, i+1)
		valueEnd := skipValue(data, i)
		if valueEnd < 0 {
			return nil, nil, errNotObject
		}
		if string(key) == "kind" {
			kind = data[i:valueEnd]
		}
		keys = append(keys, key)
		i = skipSpace(data, valueEnd)
		if i >= len(data) {
			return nil, nil, errNotObject
		}
		if data[i] == '}' {
			return end(data, i, keys, kind)
		}
		if data[i] != ',' {
			return nil, nil, errNotObject
		}
		i = skipSpace(data, i+1)
	}
}

// end accepts the object closed at data[i] when nothing but space follows it.
func end(data []byte, i int, keys [][]byte, kind []byte) ([][]byte, []byte, error) {
	if skipSpace(data, i+1) != len(data) {
		return nil, nil, errNotObject
	}
	return keys, kind, nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at data[i] (a quote), or -1.
func skipString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at data[i], or -1. Nested objects and arrays are
// skipped by depth (their strings included); scalars run to the next delimiter.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end := skipString(data, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' && data[j] != ' ' && data[j] != '\t' && data[j] != '\n' && data[j] != '\r' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

// TopLevelString is the text of an event's top-level string field `key` ("" when absent, not a string, escaped,
// or not an object), read with the same scan: the index stores events whole and needs only their turn, which
// costs less than decoding each of a large transcript's events.
func TopLevelString(data []byte, key string) string {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return ""
	}
	i = skipSpace(data, i+1)
	for i < len(data) && data[i] == '"' {
		keyEnd := skipString(data, i)
		if keyEnd < 0 {
			return ""
		}
		name := data[i+1 : keyEnd-1]
		i = skipSpace(data, keyEnd)
		if i >= len(data) || data[i] != ':' {
			return ""
		}
		i = skipSpace(data, i+1)
		valueEnd := skipValue(data, i)
		if valueEnd < 0 {
			return ""
		}
		if string(name) == key && data[i] == '"' {
			return unescaped(data[i+1 : valueEnd-1])
		}
		i = skipSpace(data, valueEnd)
		if i >= len(data) || data[i] != ',' {
			return ""
		}
		i = skipSpace(data, i+1)
	}
	return ""
}

// unescaped is a JSON string's text when it has no escapes (ids and uuids have none); "" otherwise.
func unescaped(b []byte) string {
	for _, c := range b {
		if c == '\\' {
			return ""
		}
	}
	return string(b)
}
