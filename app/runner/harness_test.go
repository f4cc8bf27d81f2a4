package runner_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/runner"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// harness runs restricted runs through the real sidecar, SDK and claude CLI against a scripted Messages API.
type harness struct {
	t       *testing.T
	api     *fakeapi.Server
	home    string
	project string
	env     []string
	r       *runner.Runner
}

func newHarness(t *testing.T, script fakeapi.Script) *harness {
	t.Helper()
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(script)
	require.NoError(t, err)
	t.Cleanup(api.Close)
	h := &harness{t: t, api: api, home: testenv.NewHome(t), project: testenv.NewProject(t)}
	env := append(testenv.CLIEnv(api.URL(), h.home), "CLAUDE_CODE_EXECUTABLE="+claude)
	h.env = env
	h.r = runner.New(runner.Config{SidecarPath: testenv.SidecarPath(t), Env: env,
		Executable: func(context.Context) (string, error) { return claude, nil }, Logger: zerolog.Nop()})
	return h
}

// run runs spec in the harness's project (unless spec.Cwd is set), with MaxTurns 10 unless set.
func (h *harness) run(spec runner.Spec) (runner.Result, error) {
	h.t.Helper()
	if spec.Cwd == "" {
		spec.Cwd = h.project
	}
	if spec.MaxTurns == 0 {
		spec.MaxTurns = 10
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	return h.r.Run(ctx, spec)
}

// requireOnlyTools checks that every request the CLI sent offered exactly these tools.
func (h *harness) requireOnlyTools(want ...string) {
	h.t.Helper()
	reqs := h.api.Requests()
	require.NotEmpty(h.t, reqs)
	for i, req := range reqs {
		if !req.Stream {
			continue // a probe carries no tools
		}
		require.ElementsMatch(h.t, want, req.ToolNames, "request %d offered other tools", i+1)
	}
}

// recorder is a handler that records its inputs and answers with answer.
type recorder struct {
	mu     sync.Mutex
	inputs []string
	answer func(input json.RawMessage) (runner.Output, error)
}

func (r *recorder) handle(_ context.Context, input json.RawMessage) (runner.Output, error) {
	r.mu.Lock()
	r.inputs = append(r.inputs, string(input))
	r.mu.Unlock()
	return r.answer(input)
}

func (r *recorder) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.inputs...)
}

const wordSchema = `{"type":"object","properties":{"word":{"type":"string","description":"The word to look up"}},"required":["word"],"additionalProperties":false}`

func lookupTool(h runner.Handler) runner.Tool {
	return runner.Tool{Name: "lookup", Description: "Look a word up in the glossary", InputSchema: json.RawMessage(wordSchema), Handler: h}
}

// toolUse is a reply asking for one tool.
func toolUse(name, input string) fakeapi.Reply {
	return fakeapi.Reply{Blocks: []fakeapi.Block{{Type: fakeapi.BlockText, Text: fakeapi.ToolIntroText},
		{Type: fakeapi.BlockToolUse, ToolName: name, ToolInput: json.RawMessage(input)}}}
}
