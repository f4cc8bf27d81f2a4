package fakeapi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
)

// cliRun runs the real claude CLI in print mode against a fresh fake API. HTTP(S)_PROXY point at
// the fake too, so any request the CLI made to another host would arrive there as a proxied request;
// after the run the test fails on any such request or any request to a route the fake lacks.
type cliRun struct {
	srv     *fakeapi.Server
	home    string
	project string
}

func newCLIRun(t *testing.T) *cliRun {
	t.Helper()
	testenv.RequireClaude(t)
	srv, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	t.Cleanup(srv.Close)
	c := &cliRun{srv: srv, home: testenv.NewHome(t), project: testenv.NewProject(t)}
	t.Cleanup(func() { c.assertOnlyOwnTraffic(t) })
	return c
}

func (c *cliRun) run(t *testing.T, prompt string, args []string, env ...string) *testenv.PrintResult {
	t.Helper()
	env = append(env,
		"HTTPS_PROXY="+c.srv.URL(), "HTTP_PROXY="+c.srv.URL(), "https_proxy="+c.srv.URL(), "http_proxy="+c.srv.URL(),
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost")
	res := testenv.RunPrint(t, testenv.PrintRun{
		BaseURL: c.srv.URL(), Home: c.home, Dir: c.project, Prompt: prompt, Args: args, Env: env,
	})
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", res.Stdout, res.Stderr)
	}
	return res
}

func (c *cliRun) assertOnlyOwnTraffic(t *testing.T) {
	for _, h := range c.srv.Hits() {
		assert.False(t, h.Proxied, "the CLI tried to reach another host: %s %s (Host %s)", h.Method, h.Target, h.Host)
		assert.NotEqual(t, 404, h.Status, "the CLI asked for a route the fake lacks: %s %s", h.Method, h.Target)
		assert.True(t, strings.HasPrefix(h.Target, "/v1/messages"), "unexpected request %s %s", h.Method, h.Target)
	}
}

func requireSuccess(t *testing.T, res *testenv.PrintResult) *testenv.StreamLine {
	t.Helper()
	r := res.Result()
	require.NotNil(t, r, "no result line; stdout:\n%s\nstderr:\n%s", res.Stdout, res.Stderr)
	require.Equal(t, "success", r.Subtype, "result: %s", r.Raw)
	require.False(t, r.IsError, "result: %s", r.Raw)
	require.Equal(t, 0, res.ExitCode)
	return r
}

func assistantTexts(res *testenv.PrintResult) []string {
	var out []string
	for _, b := range res.Blocks("assistant", "text") {
		out = append(out, b.Text)
	}
	return out
}

func TestCLITextReply(t *testing.T) {
	c := newCLIRun(t)
	res := c.run(t, "hello fake api", nil)
	r := requireSuccess(t, res)
	assert.Equal(t, "You said: hello fake api", r.Result)
	assert.Contains(t, assistantTexts(res), "You said: hello fake api")

	reqs := c.srv.Requests()
	require.Len(t, reqs, 1)
	assert.True(t, reqs[0].Stream)
	assert.Equal(t, testenv.DefaultModel, reqs[0].Model)
	assert.Equal(t, "hello fake api", reqs[0].LastUserText())
	assert.Equal(t, c.project, reqs[0].WorkingDir(), "the CLI announces its working directory")
	assert.Contains(t, reqs[0].ToolNames, "Write")
	assert.Contains(t, reqs[0].ToolNames, "Bash")
}

func TestCLIThinking(t *testing.T) {
	c := newCLIRun(t)
	res := c.run(t, "[think] ponder this", nil)
	requireSuccess(t, res)
	thinking := res.Blocks("assistant", "thinking")
	require.Len(t, thinking, 1)
	assert.Equal(t, fakeapi.ThinkingText, thinking[0].Thinking)
	assert.Contains(t, assistantTexts(res), "You said: [think] ponder this")
}

func TestCLIWriteWithAcceptEdits(t *testing.T) {
	c := newCLIRun(t)
	res := c.run(t, "[write notes.txt hello]", []string{"--permission-mode", "acceptEdits"})
	r := requireSuccess(t, res)

	got, err := os.ReadFile(filepath.Join(c.project, "notes.txt"))
	require.NoError(t, err, "the Write tool should have created notes.txt in the project")
	assert.Equal(t, "hello\n", string(got))

	uses := res.Blocks("assistant", "tool_use")
	require.Len(t, uses, 1)
	assert.Equal(t, "Write", uses[0].Name)
	assert.True(t, strings.HasPrefix(uses[0].ID, "toolu_fake_"), uses[0].ID)

	reqs := c.srv.Requests()
	require.Len(t, reqs, 2, "one request for the tool use, one after the tool ran")
	results := reqs[1].LastToolResults()
	require.Len(t, results, 1)
	assert.False(t, results[0].IsError, "tool_result: %s", results[0].Content)
	assert.Equal(t, uses[0].ID, results[0].ToolUseID)
	assert.True(t, strings.HasPrefix(results[0].Content, "File created successfully"), results[0].Content)
	assert.NotContains(t, results[0].Content, "<system-reminder>", "the CLI's reminders are not tool output")
	assert.Equal(t, "Tool results: [ok] "+results[0].Content, r.Result)
}

func TestCLIBash(t *testing.T) {
	c := newCLIRun(t)
	res := c.run(t, "[bash echo hi-there]", nil)
	r := requireSuccess(t, res)

	toolResults := res.Blocks("user", "tool_result")
	require.Len(t, toolResults, 1)
	assert.False(t, toolResults[0].IsError, "tool_result: %s", toolResults[0].Content)
	assert.Contains(t, toolResults[0].ResultText(), "hi-there")

	reqs := c.srv.Requests()
	require.Len(t, reqs, 2)
	results := reqs[1].LastToolResults()
	require.Len(t, results, 1)
	assert.Contains(t, results[0].Content, "hi-there")
	assert.Equal(t, "Tool results: [ok] hi-there", r.Result)
}

func TestCLIStatus401IsAnErrorResult(t *testing.T) {
	c := newCLIRun(t)
	res := c.run(t, "[status 401] please fail", nil)
	r := res.Result()
	require.NotNil(t, r, "no result line; stdout:\n%s", res.Stdout)
	assert.True(t, r.IsError, "result: %s", r.Raw)
	assert.NotEqual(t, 0, res.ExitCode)
	assert.Len(t, c.srv.Requests(), 1, "CLAUDE_CODE_MAX_RETRIES=0: no retries")
	var extra struct {
		APIErrorStatus int `json:"api_error_status"`
	}
	require.NoError(t, json.Unmarshal(r.Raw, &extra))
	assert.Equal(t, 401, extra.APIErrorStatus)
}

func TestCLIRecallAfterResume(t *testing.T) {
	c := newCLIRun(t)
	first := c.run(t, "first prompt alpha", nil)
	requireSuccess(t, first)
	id := first.SessionID()
	require.NotEmpty(t, id)

	second := c.run(t, "[recall]", []string{"--resume", id})
	r := requireSuccess(t, second)
	assert.Equal(t, "Earlier you said: first prompt alpha", r.Result)
	assert.Equal(t, id, second.SessionID(), "resume keeps the session id")
}

func TestCLIToolTaskCreate(t *testing.T) {
	c := newCLIRun(t)
	res := c.run(t, `[tool TaskCreate {"subject":"Write the tests","description":"Cover the fake API"}]`, nil,
		"CLAUDE_CODE_ENABLE_TODO_TOOLS=1")
	requireSuccess(t, res)
	uses := res.Blocks("assistant", "tool_use")
	require.Len(t, uses, 1)
	assert.Equal(t, "TaskCreate", uses[0].Name)
	assert.JSONEq(t, `{"subject":"Write the tests","description":"Cover the fake API"}`, string(uses[0].Input))
	results := res.Blocks("user", "tool_result")
	require.Len(t, results, 1)
	t.Logf("TaskCreate tool_result (is_error=%v): %s", results[0].IsError, results[0].ResultText())
}
