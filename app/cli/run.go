package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/runner"
)

// ExitBudget is `baton run`'s exit code when the step or cost budget ran out.
const ExitBudget = 3

const runUsage = "baton run [--cwd DIR] [--tool NAME=COMMAND …] [--tools-file FILE] [--system FILE] [--model M] " +
	"[--max-turns N] [--max-budget-usd X] [--json] PROMPT"

// defaultMaxTurns is the step budget when --max-turns is not given.
const defaultMaxTurns = 10

type runOptions struct {
	spec  runner.Spec
	tools []commandTool
	json  bool
}

// toolFlags collects repeated --tool flags.
type toolFlags []string

func (f *toolFlags) String() string     { return strings.Join(*f, ", ") }
func (f *toolFlags) Set(v string) error { *f = append(*f, v); return nil }

var _ flag.Value = (*toolFlags)(nil)

func parseRun(ctx context.Context, args []string, env Env) (runOptions, int) {
	fs := newFlagSet("run", runUsage, env.Stderr)
	var o runOptions
	var tools toolFlags
	var toolsPath, systemPath string
	fs.StringVar(&o.spec.Cwd, "cwd", "", "the folder the agent works in (default: the current folder)")
	fs.Var(&tools, "tool", "a tool NAME=COMMAND: COMMAND gets the input JSON on stdin, its stdout is the answer (repeatable)")
	fs.StringVar(&toolsPath, "tools-file", "", `tools from a JSON file: {"tools": [{"name", "description", "inputSchema", "command"}]}`)
	fs.StringVar(&systemPath, "system", "", "a file holding the system prompt")
	fs.StringVar(&o.spec.Model, "model", "", "the model (an alias such as sonnet, or an id; default: the CLI's)")
	fs.IntVar(&o.spec.MaxTurns, "max-turns", defaultMaxTurns, "the step budget")
	fs.Float64Var(&o.spec.MaxBudgetUSD, "max-budget-usd", 0, "stop once the run has cost this much (0: no cost budget)")
	fs.BoolVar(&o.json, "json", false, "print the result as one JSON object")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return o, ExitUsage
	}
	o.spec.Prompt = strings.TrimSpace(strings.Join(words, " "))
	if o.spec.Prompt == "" {
		return o, usageError(env.Stderr, runUsage, "no prompt given")
	}
	if o.spec.MaxTurns < 1 {
		return o, usageError(env.Stderr, runUsage, "--max-turns must be at least 1")
	}
	if b := o.spec.MaxBudgetUSD; !(b >= 0) || math.IsInf(b, 1) { // !(>= 0): NaN compares false to everything
		return o, usageError(env.Stderr, runUsage, "--max-budget-usd must be a number of dollars, 0 or more (0: no cost budget)")
	}
	if o.spec.Cwd == "" {
		if o.spec.Cwd, err = os.Getwd(); err != nil {
			return o, usageError(env.Stderr, runUsage, "find the current folder: %v", err)
		}
	}
	if o.spec.Cwd, err = filepath.Abs(o.spec.Cwd); err != nil {
		return o, usageError(env.Stderr, runUsage, "--cwd: %v", err)
	}
	if fi, err := os.Stat(o.spec.Cwd); err != nil || !fi.IsDir() {
		return o, usageError(env.Stderr, runUsage, "--cwd %s is not an existing folder", o.spec.Cwd)
	}
	if systemPath != "" {
		b, err := readFileLimited(ctx, "--system", systemPath, systemFileMax)
		if err != nil {
			return o, usageError(env.Stderr, runUsage, "%v", err)
		}
		o.spec.SystemPrompt = string(b)
	}
	if toolsPath != "" {
		if o.tools, err = readToolsFile(ctx, toolsPath); err != nil {
			return o, usageError(env.Stderr, runUsage, "%v", err)
		}
	}
	for _, v := range tools {
		t, err := parseToolFlag(v)
		if err != nil {
			return o, usageError(env.Stderr, runUsage, "%v", err)
		}
		o.tools = append(o.tools, t)
	}
	for _, t := range o.tools {
		o.spec.Tools = append(o.spec.Tools, t.runnerTool(o.spec.Cwd))
	}
	return o, ExitOK
}

// RunRun runs a restricted agent run: only the given command tools, no Claude Code built-in. Exit codes: 0 the
// model finished, 3 the step or cost budget ran out, 1 an error, 2 a usage error, 130 Ctrl-C canceled it.
func RunRun(ctx context.Context, args []string, env Env) int {
	// Signals first: reading --system or --tools-file may block (a FIFO), and Ctrl-C must still end it.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	o, code := parseRun(ctx, args, env)
	if code != ExitOK {
		if ctx.Err() != nil {
			return ExitCanceled
		}
		return code
	}
	env = env.forTerminal(o.json)
	r := runner.New(runner.Config{Sessions: env.Sessions})
	res, err := r.Run(ctx, o.spec)
	if err != nil && res.Detail == "invalid_spec" {
		return usageError(env.Stderr, runUsage, "%v", err)
	}
	if o.json {
		enc := json.NewEncoder(env.Stdout)
		if encErr := enc.Encode(res); encErr != nil {
			fmt.Fprintf(env.Stderr, "baton: %v\n", encErr)
			return ExitFailure
		}
	} else {
		printRunResult(env, res)
	}
	switch res.StopReason {
	case runner.StopNatural:
		return ExitOK
	case runner.StopBudget:
		return ExitBudget
	case runner.StopError:
		// Which failure it was decides the code, below.
	}
	if errors.Is(err, context.Canceled) {
		return ExitCanceled
	}
	probe := env.SignInState
	if probe == nil {
		probe = probeSignIn
	}
	if authErr := (*runner.AuthError)(nil); errors.As(err, &authErr) {
		// The run checked the sign-in before starting: explain with that state instead of probing again.
		probe = func(context.Context) *auth.State { return &authErr.State }
	}
	failure := activity.Event{Kind: activity.TurnFailed, Code: res.Detail, Message: res.Error}
	if f, ok := explainAuthFailure(context.WithoutCancel(ctx), failure, probe); ok {
		fmt.Fprint(env.Stderr, "baton: ")
		renderAuthFailure(env.Stderr, f)
	}
	return ExitFailure
}

// printRunResult shows a run as a person reads it: each tool call and the stop on stderr, the final text on stdout.
func printRunResult(env Env, res runner.Result) {
	for _, c := range res.ToolCalls {
		status := "ok"
		if c.Failed {
			status = "failed (" + string(c.Failure) + ")"
		}
		fmt.Fprintf(env.Stderr, "  ⏺ %s %s → %s\n", c.Name, oneLine(string(c.Input), 80), status)
	}
	if res.Text != "" {
		fmt.Fprintln(env.Stdout, res.Text)
	}
	line := fmt.Sprintf("baton: %s after %s, %s (%d failed), $%.4f", res.StopReason, plural(res.Turns, "turn"),
		plural(len(res.ToolCalls), "tool call"), res.ToolFailures, res.CostUSD)
	if res.Detail != "" {
		line += " [" + res.Detail + "]"
	}
	if res.Error != "" {
		line += ": " + res.Error
	}
	fmt.Fprintln(env.Stderr, line)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
