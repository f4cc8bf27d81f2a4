package cli

import (
	"bytes"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// Escape sequences and control characters never pass; the text around them, newlines and tabs do.
func TestSafeTextDropsEscapesAndControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n\tindented":             "plain text\n\tindented",
		"\x1b[31mred\x1b[0m":                 "red",
		"\x1b]0;title\x07after":              "after",
		"\x1b]8;;https://x.test\x1b\\link":   "link",
		"\x1b]52;c;aGk=\x07clipboard":        "clipboard",
		"a\x1b7b\x1bcc\x1b(Bd":               "abcd",
		"bell\x07 back\bspace\r\n":           "bell backspace\n",
		"c1 \u009b31mcsi \u009d0;t\u009cosc": "c1 csi osc",
		"unterminated \x1b]0;title\nnext":    "unterminated \nnext",
		"bidi \u202eevil\u202c done":         "bidi evil done",
		"del\x7f, é, 日本, ✓ ▶":                "del, é, 日本, ✓ ▶",
		"trailing \x1b":                      "trailing ",
		"trailing csi \x1b[":                 "trailing csi ",
		"nul\x00":                            "nul",
	} {
		require.Equal(t, want, safeText(in), "%q", in)
	}
}

// A tool's output that carries a color and a window title reaches the transcript as text only.
func TestTranscriptNeverPrintsEscapes(t *testing.T) {
	var out bytes.Buffer
	tr := newTranscript(&out)
	tr.render(activity.Event{Kind: activity.ToolCompleted, Name: "Bash", ToolUseID: "toolu_1",
		Output: "\x1b[31mred\x1b[0m\n\x1b]0;title\x07done"})
	tr.render(activity.Event{Kind: activity.MessageDelta, Block: "text", MessageID: "m1", Text: "Says \x1b[2J"})
	tr.render(activity.Event{Kind: activity.MessageCompleted, Role: "assistant", MessageID: "m1", Text: "Says \x1b[2J"})
	require.Equal(t, "✓ Bash\n    red\n    done\nSays \n", out.String())
}

// baton history shows each prompt a person wrote (quoted, line by line); a continuation has none, and exec, which
// was given the prompt on its command line, does not repeat it.
func TestHistoryTranscriptShowsPrompts(t *testing.T) {
	prompt := activity.Event{Kind: activity.TurnStarted, Prompt: "Fix the tests\nthen \x1b[1mcommit\x1b[0m"}
	continuation := activity.Event{Kind: activity.TurnStarted, Origin: activity.TurnOriginTaskNotification}
	var history bytes.Buffer
	tr := newTranscript(&history)
	tr.history = true
	tr.render(prompt)
	tr.render(continuation)
	require.Equal(t, "\n> Fix the tests\n> then commit\n", history.String())
	var live bytes.Buffer
	newTranscript(&live).render(prompt)
	require.Empty(t, live.String())
}
