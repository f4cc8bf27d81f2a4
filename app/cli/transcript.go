package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
)

// transcript renders events as a readable terminal transcript: text streams as it is written, tools and
// permissions are one-line summaries with bounded output. Nothing untrusted reaches the terminal as a control
// sequence (escape.go).
type transcript struct {
	out io.Writer
	// streamed remembers messages whose text already went out as deltas, so completion does not repeat it.
	streamed map[string]bool
	midLine  bool
	// history: the transcript of a stored session (baton history), which shows the person's prompts too.
	history bool
}

func newTranscript(out io.Writer) *transcript {
	return &transcript{out: terminalSafe(out), streamed: map[string]bool{}}
}

func (t *transcript) printf(format string, a ...any) {
	if t.midLine {
		fmt.Fprintln(t.out)
		t.midLine = false
	}
	fmt.Fprintf(t.out, format, a...)
}

// render prints one event: the kind's terminal line (terminal_gen.go, from kindMeta.ts), except the text that streams,
// which needs what was already printed.
func (t *transcript) render(ev activity.Event) {
	if t.stream(ev) {
		return
	}
	if text := terminalText(ev, t.history); text != "" {
		t.printf("%s", text)
	}
}

// stream prints an assistant's text as it streams, and its completion without repeating what streamed; it reports
// whether the event was one of those.
func (t *transcript) stream(ev activity.Event) bool {
	switch {
	case ev.Kind == activity.MessageDelta:
		if ev.Block != activity.MessageBlockText {
			return true
		}
		t.streamed[ev.MessageID] = true
		fmt.Fprint(t.out, ev.Text)
		t.midLine = !strings.HasSuffix(ev.Text, "\n")
		return true
	case ev.Kind == activity.MessageCompleted && ev.Role == activity.MessageRoleAssistant:
		stopped := ""
		if ev.Stopped != nil && *ev.Stopped {
			stopped = " [stopped]"
		}
		if ev.MessageID != "" && t.streamed[ev.MessageID] {
			delete(t.streamed, ev.MessageID)
			fmt.Fprintf(t.out, "%s", stopped)
			if t.midLine || stopped != "" {
				fmt.Fprintln(t.out)
				t.midLine = false
			}
			return true
		}
		t.printf("%s%s\n", ev.Text, stopped)
		return true
	}
	return false
}

// authFailure shows a turn that failed for authentication as the sign-in problem it is, with what to do.
func (t *transcript) authFailure(f auth.TurnFailure) {
	if t.midLine {
		fmt.Fprintln(t.out)
		t.midLine = false
	}
	renderAuthFailure(t.out, f)
}

func (t *transcript) finish() {
	if t.midLine {
		fmt.Fprintln(t.out)
		t.midLine = false
	}
}
