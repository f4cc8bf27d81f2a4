package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/baton-console/baton/app/protocol"
)

// DefaultToolTimeout bounds one handler call when Spec.ToolTimeout is zero.
const DefaultToolTimeout = 5 * time.Minute

// Spec describes one restricted run.
type Spec struct {
	// Cwd is the folder the agent works in. It is meaningful (Claude Code resolves project files from it), so it
	// is required and never taken from the process's working directory.
	Cwd string
	// SystemPrompt replaces Claude Code's own prompt (which describes tools this run does not have).
	SystemPrompt string
	Prompt       string
	// Model is an alias such as "sonnet" or a model id; "" is the CLI's default.
	Model string
	// MaxTurns is the step budget (at least 1): reaching it stops the run with StopBudget.
	MaxTurns int
	// MaxBudgetUSD stops the run with StopBudget once it has cost this much (0: no cost budget).
	MaxBudgetUSD float64
	// Tools are the only tools the model can call.
	Tools []Tool
	// ToolTimeout bounds each handler call (0: DefaultToolTimeout). A handler that overruns it is a failed call.
	ToolTimeout time.Duration
}

// Tool is one tool the model may call.
type Tool struct {
	// Name is what the model calls it: letters, digits, _ and -, at most 50, starting with a letter or digit.
	Name        string
	Description string
	// InputSchema is a JSON Schema object ("type": "object") for the tool's input. Input that fails it never
	// reaches Handler: the model is told why, and the call counts as failed.
	InputSchema json.RawMessage
	Handler     Handler
}

// Handler runs one call. Its input has passed the tool's schema. An error is a failed call whose message the
// model reads; so is a panic, or overrunning Spec.ToolTimeout (ctx ends then too).
type Handler func(ctx context.Context, input json.RawMessage) (Output, error)

// Output is what a call returns.
type Output struct {
	// Text is what the model reads (markdown).
	Text string
	// Value is kept for the caller in the Result (ToolCall.Value); the model never sees it.
	Value any
}

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,49}$`)

// check validates the spec and returns the folder as an absolute path.
func (s Spec) check() (string, error) {
	if s.Cwd == "" {
		return "", errors.New("the run needs a folder (Spec.Cwd): Claude Code resolves project files from it")
	}
	cwd, err := filepath.Abs(s.Cwd)
	if err != nil {
		return "", fmt.Errorf("folder %q: %w", s.Cwd, err)
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("folder %s does not exist or is not a folder", cwd)
	}
	if s.Prompt == "" {
		return "", errors.New("the run needs a prompt")
	}
	if s.MaxTurns < 1 {
		return "", fmt.Errorf("MaxTurns is %d: the step budget must be at least 1", s.MaxTurns)
	}
	if s.MaxBudgetUSD < 0 {
		return "", fmt.Errorf("MaxBudgetUSD is %g: a cost budget cannot be negative (0 means none)", s.MaxBudgetUSD)
	}
	if s.ToolTimeout < 0 {
		return "", fmt.Errorf("ToolTimeout is %s: it cannot be negative (0 means %s)", s.ToolTimeout, DefaultToolTimeout)
	}
	seen := map[string]bool{}
	for i, t := range s.Tools {
		if !toolNameRE.MatchString(t.Name) {
			return "", fmt.Errorf("tool %d: name %q must be 1–50 letters, digits, _ or -, starting with a letter or digit", i+1, t.Name)
		}
		if seen[t.Name] {
			return "", fmt.Errorf("tool %q is listed twice", t.Name)
		}
		seen[t.Name] = true
		if t.Handler == nil {
			return "", fmt.Errorf("tool %q has no handler", t.Name)
		}
		var head struct {
			Type any `json:"type"`
		}
		if err := json.Unmarshal(t.InputSchema, &head); err != nil {
			return "", fmt.Errorf("tool %q: its input schema is not a JSON object: %w", t.Name, err)
		}
		if head.Type != "object" {
			return "", fmt.Errorf(`tool %q: its input schema must have "type": "object"`, t.Name)
		}
	}
	return cwd, nil
}

// restricted is the spec as the sidecar's start request carries it.
func (s Spec) restricted() *protocol.RestrictedRun {
	run := &protocol.RestrictedRun{Tools: []protocol.HostTool{}, SystemPrompt: s.SystemPrompt, MaxTurns: s.MaxTurns,
		MaxBudgetUsd: s.MaxBudgetUSD}
	for _, t := range s.Tools {
		run.Tools = append(run.Tools, protocol.HostTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	return run
}

func (s Spec) toolTimeout() time.Duration {
	if s.ToolTimeout > 0 {
		return s.ToolTimeout
	}
	return DefaultToolTimeout
}
