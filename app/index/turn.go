package index

// turnOf reads the turn an event belongs to ("" for none): its top-level "turn" string. It walks the top level
// only, skipping nested values byte by byte, because decoding every event of a large transcript whole would cost
// more than storing it.
func turnOf(event []byte) string {
	i := skipSpace(event, 0)
	if i >= len(event) || event[i] != '{' {
		return ""
	}
	i++
	for {
		i = skipSpace(event, i)
		if i >= len(event) || event[i] != '"' {
			return ""
		}
		keyEnd := skipString(event, i)
		key := event[i+1 : max(i+1, keyEnd-1)]
		i = skipSpace(event, keyEnd)
		if i >= len(event) || event[i] != ':' {
			return ""
		}
		i = skipSpace(event, i+1)
		end := skipValue(event, i)
		if string(key) == "turn" && i < len(event) && event[i] == '"' {
			return plainString(event[i+1 : end-1])
		}
		i = skipSpace(event, end)
		if i >= len(event) || event[i] != ',' {
			return ""
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = skipString(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' {
			j++
		}
		return j
	}
}

// plainString is a JSON string's text when it has no escapes (turn ids are uuids); "" otherwise.
func plainString(b []byte) string {
	for _, c := range b {
		if c == '\\' {
			return ""
		}
	}
	return string(b)
}
