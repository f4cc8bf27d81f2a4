package cli

import (
	"fmt"
	"strings"
)

// The filters of the terminal lines' templates (sidecar/src/protocol/kindMeta.ts); terminal_gen.go calls them.

// termSay reads a value through a kind's words table; "*" stands for any value the table does not name.
func termSay(words map[string]string, value string) string {
	if w, ok := words[value]; ok {
		return w
	}
	return words["*"]
}

// termWords reads a wire value's underscores as spaces: "sidecar_exited" → "sidecar exited".
func termWords(s string) string { return strings.ReplaceAll(s, "_", " ") }

// termQuote puts "> " before every line, as a person's prompt reads in a transcript.
func termQuote(s string) string {
	return "> " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n> ")
}

// termPointer is an optional number's text, "" when absent (so `lead` leaves it out).
func termPointer[T any](p *T) string {
	if p == nil {
		return ""
	}
	return fmt.Sprint(*p)
}

func termValue[T any](v T) string { return fmt.Sprint(v) }

// indentTail shows a text's first maxLines lines, indented, each on a line of its own.
func indentTail(s string, maxLines int) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > maxLines {
		lines = append(lines[:maxLines], fmt.Sprintf("… %d more lines", len(lines)-maxLines))
	}
	return "\n    " + strings.Join(lines, "\n    ")
}

func suffix(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}
