package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
)

// transcript renders events as a readable terminal transcript: text streams as it is written, tools and
// permissions are one-line summaries with bounded output.
type transcript struct {
	out io.Writer
	// streamed remembers messages whose text already went out as deltas, so completion does not repeat it.
	streamed map[string]bool
	midLine  bool
}

func newTranscript(out io.Writer) *transcript {
	return &transcript{out: out, streamed: map[string]bool{}}
}

func (t *transcript) printf(format string, a ...any) {
	if t.midLine {
		fmt.Fprintln(t.out)
		t.midLine = false
	}
	fmt.Fprintf(t.out, format, a...)
}

// deniedStopReason is the stop reason of a turn a plain deny ended (PROTOCOL.md, "Permissions and denies").
const deniedStopReason = "tool_denied"

func (t *transcript) render(ev activity.Event) {
	switch ev.Kind {
	case activity.MessageDelta:
		if ev.Block != "text" {
			return
		}
		t.streamed[ev.MessageID] = true
		fmt.Fprint(t.out, ev.Text)
		t.midLine = !strings.HasSuffix(ev.Text, "\n")
	case activity.MessageCompleted:
		switch ev.Role {
		case "assistant":
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
				return
			}
			t.printf("%s%s\n", ev.Text, stopped)
		case "thinking":
			t.printf("  (thinking) %s\n", oneLine(ev.Text, 160))
		case "user":
			t.printf("> %s\n", oneLine(ev.Text, 200))
		}
	case activity.ToolStarted:
		t.printf("▶ %s\n", toolLine(ev.Name, ev.Title))
	case activity.ToolUpdated:
		if ev.Summary != "" {
			t.printf("  … %s\n", oneLine(ev.Summary, 120))
		}
	case activity.ToolCompleted:
		t.printf("✓ %s%s\n", ev.Name, indentTail(ev.Output, 12))
	case activity.ToolFailed:
		if ev.Denied != nil && *ev.Denied {
			t.printf("✗ %s denied: %s\n", ev.Name, oneLine(ev.Error, 300))
			return
		}
		t.printf("✗ %s: %s\n", ev.Name, oneLine(ev.Error, 300))
	case activity.ToolInterrupted:
		t.printf("■ %s %s\n", ev.Name, interruptedText(ev.Cause))
	case activity.PermissionSettled:
		how := map[activity.Verdict]string{activity.VerdictAllow: "allowed", activity.VerdictAllowAlways: "allowed always", activity.VerdictDeny: "denied"}[ev.Verdict]
		t.printf("  → %s (%s)%s\n", how, strings.ReplaceAll(ev.By.String(), "_", " "), suffix(": ", ev.Message))
	case activity.PlanUpdated:
		t.printf("Plan:\n")
		for _, it := range ev.Items {
			mark := map[activity.PlanStatus]string{activity.PlanStatusCompleted: "[x]", activity.PlanStatusInProgress: "[~]"}[it.Status]
			if mark == "" {
				mark = "[ ]"
			}
			t.printf("  %s %s\n", mark, it.Content)
		}
	case activity.ModelResolved:
		t.printf("  (model: %s)\n", ev.Model)
	case activity.TurnFailed:
		t.printf("Error: %s\n", ev.Message)
	case activity.TurnCanceled:
		if ev.Forced != nil && *ev.Forced {
			t.printf("Force-stopped: Claude Code did not answer.\n")
		} else {
			t.printf("Canceled.\n")
		}
	case activity.SessionStarted:
		t.printf("Session %s in %s\n", ev.Session, ev.Cwd)
	case activity.SessionUpdated:
		// Retries are worth a line: a turn that waits on an overloaded API should not look hung.
		if ev.Status == activity.SessionActivityRetrying && ev.Retry != nil {
			t.printf("  … %s\n", retryText(*ev.Retry))
		}
		if ev.Warning == activity.SessionWarningContinuationDelayed {
			t.printf("  (Claude Code's follow-up to the finished background work did not start; it was given up)\n")
		}
	case activity.TurnGuided:
		t.printf("\n> (steered) %s\n", ev.Prompt)
	case activity.TaskStarted:
		where := "in the foreground"
		if ev.Backgrounded != nil && *ev.Backgrounded {
			where = "in the background"
		}
		t.printf("  ◆ %s started %s\n", oneLine(ev.Description, 120), where)
	case activity.TaskUpdated:
		if ev.Backgrounded != nil && *ev.Backgrounded && ev.TaskState == "" {
			t.printf("  ◆ moved to the background\n")
		}
	case activity.TaskCompleted:
		t.printf("  ◆ background task %s%s\n", ev.TaskEnd, suffix(": ", oneLine(ev.Summary, 160)))
	case activity.GoalUpdated:
		switch {
		case ev.Goal == nil:
			t.printf("  ◎ goal cleared\n")
		case ev.Goal.Met:
			t.printf("  ◎ goal met: %s\n", oneLine(ev.Goal.Condition, 160))
		default:
			t.printf("  ◎ goal: %s (not met yet%s)\n", oneLine(ev.Goal.Condition, 160), suffix(": ", oneLine(ev.Goal.LastReason, 120)))
		}
	case activity.SessionCompacted:
		t.printf("  ── conversation compacted (%s)\n", ev.Trigger)
	case activity.CompactSummary:
		t.printf("  (summary of the compacted conversation: %s)\n", oneLine(ev.Text, 160))
	case activity.APIError:
		t.printf("API error (%s): %s\n", ev.Error, oneLine(ev.Message, 300))
	case activity.CommandRan:
		t.printf("> %s%s\n", ev.Name, suffix(" ", ev.Args))
	case activity.CommandOutput:
		t.printf("%s\n", indentTail(ev.Text, 12))
	case activity.TranscriptUnreadable:
		t.printf("  (%d lines of this transcript could not be read)\n", ev.Lines)
	case activity.HookRan:
		if ev.Outcome != activity.HookOutcomeSuccess {
			t.printf("  (hook %s %s)\n", ev.Name, ev.Outcome)
		}
	case activity.Unknown:
		t.printf("  (unrecognized agent message: %s)\n", oneLine(string(ev.Raw), 120))
	case activity.ProtocolError:
		t.printf("  (protocol error: %s)\n", ev.Message)
	case activity.TurnCompleted:
		if ev.StopReason == deniedStopReason {
			t.printf("Stopped: a tool was denied; Claude waits for your next prompt.\n")
		}
	case activity.TurnQueued, activity.TurnStarted, activity.TurnAccepted, activity.PermissionRequested, activity.UsageUpdated,
		activity.SessionClosed, activity.CommandsUpdated, activity.ModelsUpdated,
		activity.ContextUpdated, activity.ToolCalled, activity.TasksUpdated:
		// Shown elsewhere (the permission question) or not worth a line in a transcript.
	}
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

// toolLine is how the CLI shows a tool call: the title the sidecar's tool catalogue gave it ("Run npm test",
// "Edit src/a.ts"), so the CLI knows no tool by name.
func toolLine(name, title string) string {
	if title != "" {
		return title
	}
	// Only a hand-made event lacks the title the wire requires: the name, with no summary after it.
	return name + " "
}

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

// retryText reads as the CLI's retry did before it was typed: "retrying (attempt 2 of 10, HTTP 529)".
func retryText(r activity.RetryInfo) string {
	cause := ""
	if r.HTTPStatus != nil {
		cause = fmt.Sprintf(", HTTP %d", *r.HTTPStatus)
	}
	return fmt.Sprintf("retrying (attempt %d of %d%s)", r.Attempt, r.MaxRetries, cause)
}

// interruptedText says how a tool call that got no result ended.
func interruptedText(cause activity.ToolInterruptCause) string {
	switch cause {
	case activity.ToolInterruptCauseCancel:
		return "canceled"
	case activity.ToolInterruptCauseSidecarExited:
		return "interrupted (the agent process stopped)"
	case activity.ToolInterruptCauseHostExited:
		return "interrupted (Baton stopped)"
	default:
		return "interrupted"
	}
}
