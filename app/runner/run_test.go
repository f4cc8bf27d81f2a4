package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/runner"
	"github.com/stretchr/testify/require"
)

func TestHostToolWithValidInput(t *testing.T) {
	h := newHarness(t, nil)
	rec := &recorder{answer: func(json.RawMessage) (runner.Output, error) {
		return runner.Output{Text: "A stick passed on in a relay.", Value: map[string]int{"senses": 1}}, nil
	}}
	res, err := h.run(runner.Spec{
		SystemPrompt: "You look words up.",
		Prompt:       `Define it [tool mcp__baton__lookup {"word":"baton"}]`,
		Tools:        []runner.Tool{lookupTool(rec.handle)},
	})
	require.NoError(t, err)
	require.Equal(t, runner.StopNatural, res.StopReason)
	require.Equal(t, fakeapi.ToolResultsPrefix+"[ok] A stick passed on in a relay.", res.Text)
	require.Equal(t, []string{`{"word":"baton"}`}, rec.calls())
	require.Len(t, res.ToolCalls, 1)
	call := res.ToolCalls[0]
	require.Equal(t, "lookup", call.Name)
	require.True(t, call.Host)
	require.JSONEq(t, `{"word":"baton"}`, string(call.Input))
	require.Equal(t, "A stick passed on in a relay.", call.Output)
	require.Equal(t, map[string]int{"senses": 1}, call.Value)
	require.False(t, call.Failed)
	require.Zero(t, res.ToolFailures)
	require.Equal(t, 2, res.Turns)
	require.Positive(t, res.Usage.OutputTokens)
	h.requireOnlyTools("mcp__baton__lookup")
	// The caller's system prompt, not Claude Code's (which describes tools this run does not have).
	reqs := h.api.Requests()
	require.Contains(t, reqs[0].System, "You look words up.")
	require.NotContains(t, reqs[0].System, "You are Claude Code")
}

// A schema rejection never reaches the handler; the model sees why and retries with good input.
func TestSchemaRejectionIsCountedAndTheModelRetries(t *testing.T) {
	script := func(req *fakeapi.Request) fakeapi.Reply {
		results := req.LastToolResults()
		switch {
		case len(results) == 0:
			return toolUse("mcp__baton__lookup", `{"word":7}`)
		case results[0].IsError:
			return toolUse("mcp__baton__lookup", `{"word":"seven"}`)
		default:
			return fakeapi.TextReply("done: " + results[0].Content)
		}
	}
	h := newHarness(t, script)
	rec := &recorder{answer: func(in json.RawMessage) (runner.Output, error) { return runner.Output{Text: "a number"}, nil }}
	res, err := h.run(runner.Spec{Prompt: "What is seven?", Tools: []runner.Tool{lookupTool(rec.handle)}})
	require.NoError(t, err)
	require.Equal(t, runner.StopNatural, res.StopReason)
	require.Equal(t, "done: a number", res.Text)
	require.Equal(t, []string{`{"word":"seven"}`}, rec.calls(), "only the valid input reached the handler")
	require.Equal(t, 1, res.ToolFailures)
	require.Len(t, res.ToolCalls, 2)
	require.True(t, res.ToolCalls[0].Failed)
	require.Equal(t, runner.FailureSchema, res.ToolCalls[0].Failure)
	require.Contains(t, res.ToolCalls[0].Output, "word", "the model is told which field is wrong")
	require.False(t, res.ToolCalls[1].Failed)
	// The model saw the rejection as an error tool_result.
	var sawError bool
	for _, req := range h.api.Requests() {
		for _, r := range req.LastToolResults() {
			sawError = sawError || r.IsError
		}
	}
	require.True(t, sawError)
}

// Handler errors, panics and overruns are failed calls the model reads, never a crash of the run.
func TestHandlerErrorPanicAndTimeoutAreToolFailures(t *testing.T) {
	h := newHarness(t, nil)
	failing := func(context.Context, json.RawMessage) (runner.Output, error) {
		return runner.Output{}, errors.New("the glossary is closed today")
	}
	panicking := func(context.Context, json.RawMessage) (runner.Output, error) { panic("index out of range") }
	// It never answers on its own: only the tool timeout ends it.
	stuck := func(ctx context.Context, _ json.RawMessage) (runner.Output, error) {
		<-ctx.Done()
		return runner.Output{}, ctx.Err()
	}
	schema := json.RawMessage(`{"type":"object","properties":{}}`)
	res, err := h.run(runner.Spec{
		Prompt: "[tool mcp__baton__fails {}] [tool mcp__baton__panics {}] [tool mcp__baton__hangs {}]",
		Tools: []runner.Tool{
			{Name: "fails", Description: "fails", InputSchema: schema, Handler: failing},
			{Name: "panics", Description: "panics", InputSchema: schema, Handler: panicking},
			{Name: "hangs", Description: "hangs", InputSchema: schema, Handler: stuck},
		},
		ToolTimeout: 200 * time.Millisecond,
	})
	require.NoError(t, err, "tool failures do not fail the run")
	require.Equal(t, runner.StopNatural, res.StopReason)
	require.Equal(t, 3, res.ToolFailures)
	byName := map[string]runner.ToolCall{}
	for _, c := range res.ToolCalls {
		byName[c.Name] = c
	}
	require.Equal(t, runner.FailureHandler, byName["fails"].Failure)
	require.Contains(t, byName["fails"].Output, "the glossary is closed today")
	require.Equal(t, runner.FailurePanic, byName["panics"].Failure)
	require.Contains(t, byName["panics"].Output, "index out of range")
	require.Equal(t, runner.FailureTimeout, byName["hangs"].Failure)
	require.Contains(t, byName["hangs"].Output, "did not finish within 200ms")
	require.True(t, strings.HasPrefix(res.Text, fakeapi.ToolResultsPrefix+"[error]"), res.Text)
}

func TestMaxTurnsStopsWithBudget(t *testing.T) {
	h := newHarness(t, nil)
	rec := &recorder{answer: func(json.RawMessage) (runner.Output, error) { return runner.Output{Text: "ok"}, nil }}
	res, err := h.run(runner.Spec{
		Prompt:   `[tool mcp__baton__lookup {"word":"a"}]`,
		MaxTurns: 1,
		Tools:    []runner.Tool{lookupTool(rec.handle)},
	})
	require.NoError(t, err, "a budget stop is not an error")
	require.Equal(t, runner.StopBudget, res.StopReason)
	require.Equal(t, "max_turns", res.Detail)
	require.Equal(t, 2, res.Turns)
	require.Equal(t, fakeapi.ToolIntroText, res.Text)
	require.Len(t, rec.calls(), 1, "the pending tool still ran")
}

func TestAPIErrorStopsWithError(t *testing.T) {
	h := newHarness(t, nil)
	res, err := h.run(runner.Spec{Prompt: "[status 500]"})
	require.Error(t, err)
	require.Equal(t, runner.StopError, res.StopReason)
	require.Equal(t, "api_error", res.Detail)
	require.Equal(t, err.Error(), res.Error)
	require.Contains(t, err.Error(), "500")
}

func TestNaturalEndWithoutTools(t *testing.T) {
	h := newHarness(t, nil)
	res, err := h.run(runner.Spec{Prompt: "hello there"})
	require.NoError(t, err)
	require.Equal(t, runner.StopNatural, res.StopReason)
	require.Equal(t, fakeapi.YouSaidPrefix+"hello there", res.Text)
	require.Equal(t, 1, res.Turns)
	require.Empty(t, res.ToolCalls)
	h.requireOnlyTools()
}

func TestInvalidSpecsAreRefusedBeforeAnythingStarts(t *testing.T) {
	r := runner.New(runner.Config{SidecarPath: "/nonexistent/baton-sidecar"})
	ok := func(context.Context, json.RawMessage) (runner.Output, error) { return runner.Output{}, nil }
	dir := t.TempDir()
	for name, spec := range map[string]runner.Spec{
		"no folder":     {Prompt: "p", MaxTurns: 1},
		"no prompt":     {Cwd: dir, MaxTurns: 1},
		"no step limit": {Cwd: dir, Prompt: "p"},
		"bad tool name": {Cwd: dir, Prompt: "p", MaxTurns: 1, Tools: []runner.Tool{{Name: "a b", InputSchema: json.RawMessage(`{"type":"object"}`), Handler: ok}}},
		"not an object": {Cwd: dir, Prompt: "p", MaxTurns: 1, Tools: []runner.Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"string"}`), Handler: ok}}},
		"no handler":    {Cwd: dir, Prompt: "p", MaxTurns: 1, Tools: []runner.Tool{{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}}},
		"twice": {Cwd: dir, Prompt: "p", MaxTurns: 1, Tools: []runner.Tool{
			{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`), Handler: ok},
			{Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`), Handler: ok}}},
	} {
		t.Run(name, func(t *testing.T) {
			res, err := r.Run(context.Background(), spec)
			require.Error(t, err)
			require.Equal(t, runner.StopError, res.StopReason)
			require.Equal(t, "invalid_spec", res.Detail)
		})
	}
}

func TestCheckAuthSaysWhatToDoWhenSignedOut(t *testing.T) {
	claude := testenv.RequireClaude(t)
	var env []string
	for _, kv := range testenv.CLIEnv("http://127.0.0.1:9", testenv.NewHome(t)) {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			env = append(env, kv)
		}
	}
	r := runner.New(runner.Config{Env: env, Executable: func(context.Context) (string, error) { return claude, nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err := r.CheckAuth(ctx)
	var authErr *runner.AuthError
	require.ErrorAs(t, err, &authErr)
	require.Equal(t, auth.StatusSignedOut, authErr.State.Status)
	require.Contains(t, err.Error(), "auth login", "it says how to sign in")
}
