package fakeapi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Texts of the default script that tests compare against.
const (
	ThinkingText      = "Let me think about this."
	ToolIntroText     = "I'll do that."
	YouSaidPrefix     = "You said: "
	RecallPrefix      = "Earlier you said: "
	ToolResultsPrefix = "Tool results: "
	ProbeText         = "ok"
	// ImagesPrefix starts the reply to [count-images]: then how many images the prompt carried.
	ImagesPrefix = "Images: "
	// FollowUpPrefix starts the reply to a background task's notification, followed by the task's summary.
	FollowUpPrefix = "The background work finished: "
	// GoalMetMarker in the answer a goal's stop hook evaluates makes the goal met; GoalNotMetReason is the
	// reason given otherwise (it carries the marker, so the model's next answer meets the goal).
	GoalMetMarker    = "[goal-met]"
	GoalNotMetReason = "Not yet: the answer must say " + GoalMetMarker
	GoalMetReason    = "The transcript says " + GoalMetMarker
)

// EstimatedThinkingText is the thinking of [think-estimated], streamed with the API's own count of it,
// ThinkingEstimate tokens: not its length / 4 (22), so a count taken from the text shows.
const (
	EstimatedThinkingText = "First the premises, then what follows from them, and last what could still be missing."
	ThinkingEstimate      = 50
)

// goalEvalPrefix begins the request Claude Code's /goal stop hook sends to evaluate its condition.
const goalEvalPrefix = "Based on the conversation transcript above, has the following stopping condition been satisfied?"

// Shape of a [slow] text block: about ten seconds, so tests can cancel in the middle.
const (
	SlowDeltaCount = 100
	SlowDeltaDelay = 100 * time.Millisecond
)

// toolResultMax bounds each tool_result quoted back in a reply, in runes.
const toolResultMax = 200

// DefaultScript returns the marker-driven script. Rules, first match wins:
//
//  1. A non-streaming request (a model probe): a message with the text "ok"; but one with tools whose last
//     user text holds [status NNN] (an older CLI's non-streaming retry of that turn) fails as rule 3 says.
//  2. The last user message holds tool_results: one text block, "Tool results: " then "[ok] <content>"
//     or "[error] <content>" for each (trimmed, at most 200 runes), joined by " | ". When it also holds typed
//     text besides Claude Code's "[Request interrupted by user…]" marks (a prompt sent after a turn a deny
//     stopped: Claude Code joins it to that turn's results), that text is answered by rule 3 instead.
//  3. Otherwise markers in the text the user typed in the last user message (system reminders are
//     ignored) shape one response, in this order:
//     [think] adds a thinking block "Let me think about this." (with a signature);
//     [think-echo] adds a thinking block holding the user's text (for untrusted-content tests);
//     [think-estimated] adds the thinking block EstimatedThinkingText whose deltas carry the API's own count
//     (estimated_tokens, ThinkingEstimate in all);
//     [status NNN] (400–599) sends no message but HTTP NNN with an Anthropic error body;
//     [plan-warning] sends a plan's rate-limit headers with the reply: the 5-hour window 92 % used (past
//     the 90 % warning), resetting in 90 minutes, the week 40 % (read only for a plan's sign-in: ratelimit.go);
//     [plan-rejected] sends no message but the 429 of a plan whose 5-hour window is used up;
//     [slow] streams the text block as 100 deltas 100 ms apart;
//     [recall] makes the text "Earlier you said: " + every earlier user text joined by " | ";
//     [count-images] makes the text "Images: N", N the image blocks of the last user message;
//     [write PATH CONTENT] (ends at the first "]") adds a Write tool_use with content CONTENT+"\n",
//     a relative PATH joined to the working directory the CLI announced;
//     [bash COMMAND] (ends at the balancing "]") adds a Bash tool_use;
//     [tool NAME {JSON}] adds a tool_use of NAME with that input ([tool NAME] means {});
//     [images] ends the text with " Images: " and the last user message's image blocks, "image/png (N base64
//     bytes)" each, joined by ", " ("none" without any).
//     The text block comes first: the [recall] text, else "I'll do that." when there are tool uses,
//     else "You said: <text>". Tool markers may repeat; a malformed one is reported in the text.
//
// Before 2 and 3, two requests Claude Code makes on its own:
//   - a /goal stop-hook evaluation (its last user text begins "Based on the conversation transcript above, has
//     the following stopping condition been satisfied?"): {"ok": true, …} when the last assistant message it
//     quotes holds "[goal-met]", else {"ok": false, "reason": "Not yet: the answer must say [goal-met]"};
//   - a follow-up after a background task's notification (a last user message with nothing typed, only a
//     system reminder holding <task-notification>):
//     "The background work finished: <summary>"; with "[withhold]" in the notification (say, in the task's
//     description), no response at all until the client goes away (Reply.Withhold); with "[await-file PATH]",
//     the reply pauses after its first delta until PATH exists (Reply.Hold), so a test decides when it ends.
//
// A last user message whose only text is in system reminders that carry "[goal-met]" (the goal hook's
// feedback) is answered "Done: [goal-met]".
//
// stop_reason is tool_use when a tool_use is present, else end_turn.
func DefaultScript() Script {
	return defaultReply
}

func defaultReply(req *Request) Reply {
	if !req.Stream {
		// Older CLIs (1.0.x, 2.0.x) retry a failed stream without streaming, tools and all: a scripted outage
		// holds for that retry too. Probes and title requests carry no tools.
		if code, ok := statusMarker(req.LastUserText()); ok && len(req.ToolNames) > 0 {
			return ErrorReply(code)
		}
		return TextReply(ProbeText)
	}
	text := req.LastUserText()
	if strings.HasPrefix(text, goalEvalPrefix) {
		return goalVerdict(text)
	}
	// Only a message holding nothing typed is the notification's own request (a prompt sent meanwhile may share it).
	if raw := req.LastUserRawText(); text == "" && strings.Contains(raw, "<task-notification>") {
		if strings.Contains(raw, "[withhold]") {
			return Reply{Withhold: true}
		}
		r := TextReply(FollowUpPrefix + between(raw, "<summary>", "</summary>"))
		if path := between(raw, "[await-file ", "]"); path != "" {
			r.Hold = fileAppears(path)
		}
		return r
	} else if text == "" && strings.Contains(raw, GoalMetMarker) && len(req.LastToolResults()) == 0 {
		return TextReply("Done: " + GoalMetMarker)
	}
	if results := req.LastToolResults(); len(results) > 0 {
		// A prompt typed after a turn a deny stopped shares the user message with that turn's tool_results.
		typed := strings.TrimSpace(stopMarkRE.ReplaceAllString(text, ""))
		if typed == "" {
			return TextReply(toolResultsText(results))
		}
		text = typed
	}
	if code, ok := statusMarker(text); ok {
		return ErrorReply(code)
	}
	if strings.Contains(text, PlanRejectedMarker) {
		return planRejected(time.Now())
	}
	var r Reply
	if strings.Contains(text, PlanWarningMarker) {
		r.Headers = planWarning(time.Now())
	}
	if strings.Contains(text, "[think]") {
		r.Blocks = append(r.Blocks, Block{Type: BlockThinking, Text: ThinkingText})
	} else if strings.Contains(text, "[think-echo]") {
		r.Blocks = append(r.Blocks, Block{Type: BlockThinking, Text: text})
	} else if strings.Contains(text, "[think-estimated]") {
		r.Blocks = append(r.Blocks, Block{Type: BlockThinking, Text: EstimatedThinkingText, EstimatedTokens: ThinkingEstimate})
	}
	if strings.Contains(text, "[slow]") {
		r.DeltaCount, r.DeltaDelay = SlowDeltaCount, SlowDeltaDelay
	}
	var tools []Block
	var problems []string
	if strings.Contains(text, "[write ") {
		b, p := writeMarkers(text, req.WorkingDir())
		tools, problems = append(tools, b...), append(problems, p...)
	}
	b, p := bashMarkers(text)
	tools, problems = append(tools, b...), append(problems, p...)
	b, p = toolMarkers(text)
	tools, problems = append(tools, b...), append(problems, p...)

	var reply string
	switch {
	case strings.Contains(text, "[count-images]"):
		reply = fmt.Sprintf("%s%d", ImagesPrefix, len(req.LastUserImages()))
	case strings.Contains(text, "[recall]"):
		reply = RecallPrefix + strings.Join(userTextsBefore(req.Messages, req.lastUser()), " | ")
	case len(tools) > 0:
		reply = ToolIntroText
	default:
		reply = YouSaidPrefix + text
	}
	if strings.Contains(text, "[images]") {
		seen := req.LastUserImages()
		if len(seen) == 0 {
			seen = []string{"none"}
		}
		reply += " Images: " + strings.Join(seen, ", ")
	}
	if len(problems) > 0 {
		reply += " (fakeapi ignored: " + strings.Join(problems, "; ") + ")"
	}
	r.Blocks = append(r.Blocks, Block{Type: BlockText, Text: reply})
	r.Blocks = append(r.Blocks, tools...)
	return r
}

// goalVerdict answers a goal stop-hook evaluation in the structured form it asks for ({ok, reason}).
func goalVerdict(text string) Reply {
	quoted := text
	if i := strings.Index(text, "ARGUMENTS:"); i >= 0 {
		quoted = text[i:]
	}
	verdict := struct {
		OK     bool   `json:"ok"`
		Reason string `json:"reason"`
	}{false, GoalNotMetReason}
	if strings.Contains(quoted, GoalMetMarker) {
		verdict.OK, verdict.Reason = true, GoalMetReason
	}
	b, _ := json.Marshal(verdict)
	return TextReply(string(b))
}

// between returns the text between the first open and the next close, trimmed ("" when absent).
func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	rest := s[i+len(open):]
	if j := strings.Index(rest, close); j >= 0 {
		rest = rest[:j]
	}
	return strings.TrimSpace(rest)
}

func toolResultsText(results []ToolResult) string {
	parts := make([]string, 0, len(results))
	for _, tr := range results {
		tag := "[ok] "
		if tr.IsError {
			tag = "[error] "
		}
		c := []rune(strings.TrimSpace(tr.Content))
		if len(c) > toolResultMax {
			c = c[:toolResultMax]
		}
		parts = append(parts, tag+string(c))
	}
	return ToolResultsPrefix + strings.Join(parts, " | ")
}

// stopMarkRE matches the marks Claude Code adds after a stopped turn ("[Request interrupted by user for tool use]").
var stopMarkRE = regexp.MustCompile(`\[Request interrupted by user[^\]]*\]`)

var statusRE = regexp.MustCompile(`\[status (\d{3})\]`)

// statusMarker finds the first [status NNN] with NNN in 400–599.
func statusMarker(text string) (int, bool) {
	for _, m := range statusRE.FindAllStringSubmatch(text, -1) {
		if code, _ := strconv.Atoi(m[1]); code >= 400 && code <= 599 {
			return code, true
		}
	}
	return 0, false
}

// markerBodies returns the text between prefix and the end of each occurrence; end finds the
// closing "]" in the text after the prefix (-1 = unterminated, reported as a problem).
func markerBodies(text, prefix string, end func(rest string) int) (bodies, problems []string) {
	for i := 0; ; {
		j := strings.Index(text[i:], prefix)
		if j < 0 {
			return bodies, problems
		}
		start := i + j + len(prefix)
		k := end(text[start:])
		if k < 0 {
			return bodies, append(problems, prefix+"… has no closing ]")
		}
		bodies = append(bodies, text[start:start+k])
		i = start + k + 1
	}
}

// balancedEnd finds the "]" that closes a marker whose "[" is already consumed, so a command may
// itself hold brackets, as in [bash [ -f x ] && echo yes].
func balancedEnd(s string) int {
	depth := 0
	for i, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				return i
			}
			depth--
		}
	}
	return -1
}

func firstBracket(s string) int { return strings.IndexByte(s, ']') }

func writeMarkers(text, workdir string) (blocks []Block, problems []string) {
	bodies, problems := markerBodies(text, "[write ", firstBracket)
	for _, body := range bodies {
		path, content, _ := strings.Cut(strings.TrimSpace(body), " ")
		if path == "" {
			problems = append(problems, "[write] needs a path")
			continue
		}
		if !filepath.IsAbs(path) && !strings.HasPrefix(path, "/") && workdir != "" {
			path = filepath.Join(workdir, path)
		}
		blocks = append(blocks, toolUse("Write", struct {
			FilePath string `json:"file_path"`
			Content  string `json:"content"`
		}{path, strings.TrimSpace(content) + "\n"}))
	}
	return blocks, problems
}

func bashMarkers(text string) (blocks []Block, problems []string) {
	bodies, problems := markerBodies(text, "[bash ", balancedEnd)
	for _, body := range bodies {
		cmd := strings.TrimSpace(body)
		if cmd == "" {
			problems = append(problems, "[bash] needs a command")
			continue
		}
		blocks = append(blocks, toolUse("Bash", struct {
			Command     string `json:"command"`
			Description string `json:"description"`
		}{cmd, "Run a command"}))
	}
	return blocks, problems
}

// toolMarkers parses [tool NAME {JSON}]; the JSON runs to its matching brace, so it may hold "]".
func toolMarkers(text string) (blocks []Block, problems []string) {
	const prefix = "[tool "
	for i := 0; ; {
		j := strings.Index(text[i:], prefix)
		if j < 0 {
			return blocks, problems
		}
		rest := strings.TrimLeft(text[i+j+len(prefix):], " \t")
		name := rest[:strings.IndexFunc(rest+" ", func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == ']' })]
		after := strings.TrimLeft(rest[len(name):], " \t\n")
		consumed := len(text) - len(after)
		input := json.RawMessage("{}")
		if strings.HasPrefix(after, "{") {
			n := jsonObjectEnd(after)
			if n < 0 {
				problems = append(problems, fmt.Sprintf("[tool %s] has unbalanced JSON", name))
				return blocks, problems
			}
			input = json.RawMessage(after[:n])
			after = strings.TrimLeft(after[n:], " \t\n")
			consumed = len(text) - len(after)
		}
		i = consumed
		switch {
		case name == "":
			problems = append(problems, "[tool] needs a name")
		case !strings.HasPrefix(after, "]"):
			problems = append(problems, fmt.Sprintf("[tool %s] must end with ] after its JSON", name))
		case !json.Valid(input):
			problems = append(problems, fmt.Sprintf("[tool %s] input is not valid JSON", name))
		default:
			blocks = append(blocks, Block{Type: BlockToolUse, ToolName: name, ToolInput: input})
			i++
		}
	}
}

// jsonObjectEnd returns the length of the JSON object at the start of s (through its matching
// brace, skipping braces inside strings), or -1.
func jsonObjectEnd(s string) int {
	depth, inString, escaped := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// toolUse builds a tool_use block; input is a struct, so encoding cannot fail.
func toolUse(name string, input any) Block {
	b, _ := json.Marshal(input)
	return Block{Type: BlockToolUse, ToolName: name, ToolInput: b}
}

// fileAppears is closed once path exists: a test creates the file when it wants a held reply to go on. It gives
// up after awaitFileLimit, so a test that never creates the file leaves no poller behind for long.
func fileAppears(path string) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for deadline := time.Now().Add(awaitFileLimit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(path); err == nil {
				return
			}
		}
	}()
	return done
}

// awaitFileLimit bounds an [await-file] hold.
const awaitFileLimit = 10 * time.Minute
