package gitwork

import (
	"strings"
	"unicode"
)

// maxNameLen bounds a worktree's name: it is a folder and part of a branch name, read in lists.
const maxNameLen = 40

// Slug names a worktree after the first prompt: lower-case words of letters and digits joined by '-', cut at a
// word boundary within maxNameLen ("session" when nothing is left).
func Slug(prompt string) string {
	words := strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	var b strings.Builder
	for _, w := range words {
		if len(w) > maxNameLen {
			w = w[:maxNameLen]
		}
		if b.Len() > 0 && b.Len()+1+len(w) > maxNameLen {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
	}
	if b.Len() == 0 {
		return "session"
	}
	return b.String()
}
