package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/baton-console/baton/app/activity"
)

// approvalPolicy answers permission requests for `exec --approve`: all, none, or a list of tool names.
type approvalPolicy struct {
	set   bool
	all   bool
	tools map[string]bool
}

func parseApprove(v string) (approvalPolicy, error) {
	switch strings.TrimSpace(v) {
	case "":
		return approvalPolicy{}, nil
	case "all":
		return approvalPolicy{set: true, all: true}, nil
	case "none":
		return approvalPolicy{set: true, tools: map[string]bool{}}, nil
	}
	p := approvalPolicy{set: true, tools: map[string]bool{}}
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return approvalPolicy{}, fmt.Errorf("--approve %q has an empty tool name; use all, none or a list such as Read,Write", v)
		}
		p.tools[name] = true
	}
	return p, nil
}

// decide returns the policy's verdict, or ok=false when the policy has nothing to say (no --approve given).
func (p approvalPolicy) decide(toolName string) (verdict activity.Verdict, ok bool) {
	if !p.set {
		return "", false
	}
	if p.all || p.tools[toolName] {
		return activity.VerdictAllow, true
	}
	return activity.VerdictDeny, true
}

type answer struct {
	requestID string
	verdict   activity.Verdict
	message   string
}

// askOnTerminal asks a person about one permission request; it returns deny on end of input.
func askOnTerminal(in *bufio.Reader, out io.Writer, ev activity.Event) answer {
	fmt.Fprintf(out, "\n? Allow %s: %s\n", ev.ToolName, toolLine(ev.ToolName, ev.ToolTitle))
	if ev.DecisionReason != "" {
		fmt.Fprintf(out, "  (%s)\n", ev.DecisionReason)
	}
	for {
		fmt.Fprint(out, "  [a]llow once, allow al[w]ays, [d]eny: ")
		line, err := in.ReadString('\n')
		choice := strings.ToLower(strings.TrimSpace(line))
		switch choice {
		case "a", "allow", "y", "yes":
			return answer{ev.RequestID, activity.VerdictAllow, ""}
		case "w", "always":
			return answer{ev.RequestID, activity.VerdictAllowAlways, ""}
		case "d", "deny", "n", "no":
			// As in the terminal: no message stops Claude; a message goes back to it and it carries on.
			fmt.Fprint(out, "  tell Claude what to do differently (empty: Claude stops and waits for you): ")
			reason, _ := in.ReadString('\n')
			return answer{ev.RequestID, activity.VerdictDeny, strings.TrimSpace(reason)}
		}
		if err != nil {
			return answer{ev.RequestID, activity.VerdictDeny, ""}
		}
		fmt.Fprintln(out, "  please answer a, w or d")
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
