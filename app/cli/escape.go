package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// What the terminal commands print comes partly from untrusted text: tool output, titles, prompts, a model's reply.
// A terminal acts on escape sequences in it (colors, cursor moves, a window title, OSC 52 clipboard writes,
// hyperlinks), so everything printed as text goes through safeText first: escape sequences and control
// characters are removed, newlines and tabs kept. Checked in this file rather than taken from a library: none of
// the stripping packages is among those this project may add, and the rule is short.

// safeWriter removes escape sequences and control characters from everything written through it.
type safeWriter struct{ out io.Writer }

// terminalSafe wraps w so nothing written reaches the terminal as a control sequence.
func terminalSafe(w io.Writer) io.Writer {
	if _, ok := w.(*safeWriter); ok {
		return w
	}
	return &safeWriter{out: w}
}

func (w *safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.out, safeText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// forTerminal is the environment with the streams a person reads made safe: stderr always, stdout unless it carries
// JSON (whose encoder escapes control characters itself, and whose bytes a program reads).
func (e Env) forTerminal(stdoutIsJSON bool) Env {
	e.Stderr = terminalSafe(e.Stderr)
	if !stdoutIsJSON {
		e.Stdout = terminalSafe(e.Stdout)
	}
	return e
}

const esc = 0x1b

// safeText drops ANSI escape sequences (CSI, OSC and the other string sequences, two-character escapes, and their
// 8-bit C1 forms), every other C0 and C1 control character and DEL, and the bidirectional overrides that make text
// read other than it is; newlines and tabs stay. A sequence is dropped whole, so no "[31m" is left behind. A
// string sequence cut short ends at the newline, so unterminated input cannot hide the lines after it.
func safeText(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == esc:
			i += escapeLength(s[i+1:]) + 1
			continue
		case r == 0x9b: // C1 CSI
			i += size + csiLength(s[i+size:])
			continue
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // C1 DCS, SOS, OSC, PM, APC
			i += size + stringLength(s[i+size:])
			continue
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t' || !isControl(r):
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain is the fast path: printable ASCII, newlines and tabs only.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c == 0x7f || c < 0x20 && c != '\n' && c != '\t' {
			return false
		}
	}
	return true
}

func isControl(r rune) bool {
	return r < 0x20 || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// escapeLength is how many bytes after an ESC belong to its sequence.
func escapeLength(s string) int {
	if s == "" {
		return 0
	}
	switch c := s[0]; {
	case c == '[':
		return 1 + csiLength(s[1:])
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return 1 + stringLength(s[1:])
	case c >= 0x20 && c <= 0x7e:
		// A two-character escape (ESC c, ESC 7, ESC ( B takes one more: an intermediate then a final).
		if c >= 0x20 && c <= 0x2f && len(s) > 1 && s[1] >= 0x30 && s[1] <= 0x7e {
			return 2
		}
		return 1
	}
	return 0
}

// csiLength is the length of a CSI's parameters, intermediates and final byte; it stops early at anything else.
func csiLength(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f:
			continue
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		default:
			return i
		}
	}
	return len(s)
}

// stringLength is the length of an OSC, DCS, SOS, PM or APC body and its terminator (BEL, ESC \, C1 ST), or up to
// the newline that cuts it short.
func stringLength(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == esc && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		case s[i] == '\n':
			return i
		}
	}
	return len(s)
}
