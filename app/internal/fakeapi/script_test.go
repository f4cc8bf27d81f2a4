package fakeapi

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userReq builds a streaming request whose conversation is the given user texts with a short
// assistant answer between them; the environment reminder names workdir when it is not empty.
func userReq(workdir string, texts ...string) *Request {
	r := &Request{Model: "m", Stream: true}
	for i, tx := range texts {
		content := []ContentBlock{{Type: "text", Text: tx}}
		if i == 0 && workdir != "" {
			env := "<system-reminder>\n - Primary working directory: " + workdir + "\n</system-reminder>"
			content = append([]ContentBlock{{Type: "text", Text: env}}, content...)
		}
		if i > 0 {
			r.Messages = append(r.Messages, Message{Role: "assistant", Content: []ContentBlock{{Type: "text", Text: "ok"}}})
		}
		r.Messages = append(r.Messages, Message{Role: "user", Content: content})
	}
	return r
}

func toolInput(t *testing.T, b Block) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(b.ToolInput, &m), string(b.ToolInput))
	return m
}

func TestScriptPlainText(t *testing.T) {
	r := DefaultScript()(userReq("/w", "hello there"))
	assert.Equal(t, []Block{{Type: BlockText, Text: "You said: hello there"}}, r.Blocks)
	assert.Equal(t, "end_turn", r.stopReason())
	assert.False(t, r.isError())
	assert.Zero(t, r.DeltaDelay)
}

func TestScriptNonStreamingProbe(t *testing.T) {
	req := userReq("", "[status 500] [write a b]")
	req.Stream = false
	assert.Equal(t, TextReply("ok"), DefaultScript()(req))
}

func TestScriptToolResults(t *testing.T) {
	req := userReq("", "[bash ls]")
	long := strings.Repeat("é", 250)
	req.Messages = append(req.Messages,
		Message{Role: "assistant", Content: []ContentBlock{{Type: "tool_use", ID: "a"}, {Type: "tool_use", ID: "b"}}},
		Message{Role: "user", Content: []ContentBlock{
			{Type: "tool_result", ToolUseID: "a", Content: "  done\n"},
			{Type: "tool_result", ToolUseID: "b", Content: long, IsError: true},
		}})
	r := DefaultScript()(req)
	require.Len(t, r.Blocks, 1)
	assert.Equal(t, "Tool results: [ok] done | [error] "+strings.Repeat("é", 200), r.Blocks[0].Text)
	assert.Equal(t, "end_turn", r.stopReason())
}

func TestScriptPromptAfterAStoppedTurn(t *testing.T) {
	req := userReq("", "[bash ls]")
	req.Messages = append(req.Messages,
		Message{Role: "assistant", Content: []ContentBlock{{Type: "tool_use", ID: "a"}}},
		Message{Role: "user", Content: []ContentBlock{
			{Type: "tool_result", ToolUseID: "a", Content: "The user doesn't want to proceed", IsError: true},
			{Type: "text", Text: "[Request interrupted by user for tool use]"},
			{Type: "text", Text: "next question"},
		}})
	r := DefaultScript()(req)
	require.Len(t, r.Blocks, 1)
	assert.Equal(t, "You said: next question", r.Blocks[0].Text)
	// The mark alone is no prompt: the results are answered.
	req.Messages[len(req.Messages)-1].Content = req.Messages[len(req.Messages)-1].Content[:2]
	assert.Equal(t, "Tool results: [error] The user doesn't want to proceed", DefaultScript()(req).Blocks[0].Text)
}

func TestScriptStatus(t *testing.T) {
	cases := []struct {
		code     int
		typ, msg string
	}{
		{401, "authentication_error", "invalid x-api-key"},
		{400, "invalid_request_error", "fake invalid request"},
		{429, "rate_limit_error", "fake rate limit"},
		{500, "api_error", "fake server error"},
		{529, "api_error", "fake server error"},
	}
	for _, c := range cases {
		r := DefaultScript()(userReq("", "[think] [status "+itoa(c.code)+"] hi"))
		assert.True(t, r.isError())
		assert.Equal(t, c.code, r.Status)
		assert.Equal(t, c.typ, r.errorType(), c.code)
		assert.Equal(t, c.msg, r.errorMessage(), c.code)
		assert.Empty(t, r.Blocks, "an error sends no message")
	}
	r := DefaultScript()(userReq("", "[status 200] [status 99x]"))
	assert.False(t, r.isError(), "only 400–599 count")
}

func TestScriptStatusHoldsForANonStreamingRetry(t *testing.T) {
	retry := userReq("", "[status 429] hi")
	retry.Stream, retry.ToolNames = false, []string{"Bash"}
	r := DefaultScript()(retry)
	assert.Equal(t, 429, r.Status, "an older CLI's non-streaming retry of the turn fails too")
	probe := userReq("", "[status 429] hi")
	probe.Stream = false
	assert.Equal(t, []Block{{Type: BlockText, Text: ProbeText}}, DefaultScript()(probe).Blocks, "a probe without tools answers ok")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestScriptThinkSlowRecall(t *testing.T) {
	r := DefaultScript()(userReq("", "[think] [slow] go"))
	require.Len(t, r.Blocks, 2)
	assert.Equal(t, Block{Type: BlockThinking, Text: ThinkingText}, r.Blocks[0])
	assert.Equal(t, Block{Type: BlockText, Text: "You said: [think] [slow] go"}, r.Blocks[1])
	assert.Equal(t, SlowDeltaCount, r.DeltaCount)
	assert.Equal(t, SlowDeltaDelay, r.DeltaDelay)

	req := userReq("/w", "one", "two", "[recall]")
	// A tool round in between: its results are not user texts.
	req.Messages = append(req.Messages[:3:3], append([]Message{
		{Role: "assistant", Content: []ContentBlock{{Type: "tool_use", ID: "t"}}},
		{Role: "user", Content: []ContentBlock{{Type: "tool_result", ToolUseID: "t", Content: "out"}}},
	}, req.Messages[3:]...)...)
	r = DefaultScript()(req)
	assert.Equal(t, []Block{{Type: BlockText, Text: "Earlier you said: one | two"}}, r.Blocks)

	r = DefaultScript()(userReq("", "[recall]"))
	assert.Equal(t, "Earlier you said: ", r.Blocks[0].Text)
}

func TestScriptWrite(t *testing.T) {
	r := DefaultScript()(userReq("/proj dir", "[write notes.txt hello world] then [write /abs/x.md]"))
	require.Len(t, r.Blocks, 3)
	assert.Equal(t, Block{Type: BlockText, Text: ToolIntroText}, r.Blocks[0])
	assert.Equal(t, "Write", r.Blocks[1].ToolName)
	assert.Equal(t, map[string]any{"file_path": "/proj dir/notes.txt", "content": "hello world\n"}, toolInput(t, r.Blocks[1]))
	assert.Equal(t, map[string]any{"file_path": "/abs/x.md", "content": "\n"}, toolInput(t, r.Blocks[2]))
	assert.Equal(t, "tool_use", r.stopReason())

	r = DefaultScript()(userReq("", "[write rel/a.txt x]"))
	assert.Equal(t, "rel/a.txt", toolInput(t, r.Blocks[1])["file_path"], "no working directory: the path as given")

	r = DefaultScript()(userReq("/w", "[write a.txt [x] y]"))
	assert.Equal(t, "[x\n", toolInput(t, r.Blocks[1])["content"], "the marker ends at the first ]")
}

func TestScriptBash(t *testing.T) {
	r := DefaultScript()(userReq("", "[bash [ -f x ] && echo yes] and [bash echo two]"))
	require.Len(t, r.Blocks, 3)
	assert.Equal(t, map[string]any{"command": "[ -f x ] && echo yes", "description": "Run a command"}, toolInput(t, r.Blocks[1]))
	assert.Equal(t, "echo two", toolInput(t, r.Blocks[2])["command"])
	assert.Equal(t, "Bash", r.Blocks[2].ToolName)
}

func TestScriptTool(t *testing.T) {
	r := DefaultScript()(userReq("", `[tool TaskCreate {"subject":"a ] b","meta":{"n":1},"q":"\"}"}]`))
	require.Len(t, r.Blocks, 2)
	assert.Equal(t, "TaskCreate", r.Blocks[1].ToolName)
	assert.JSONEq(t, `{"subject":"a ] b","meta":{"n":1},"q":"\"}"}`, string(r.Blocks[1].ToolInput))

	r = DefaultScript()(userReq("", "[tool TaskList] [tool TaskGet {\"taskId\":\"1\"} ]"))
	require.Len(t, r.Blocks, 3)
	assert.JSONEq(t, `{}`, string(r.Blocks[1].ToolInput))
	assert.Equal(t, "TaskGet", r.Blocks[2].ToolName)
}

func TestScriptMarkerOrderAndProblems(t *testing.T) {
	r := DefaultScript()(userReq("/w", `[tool T {"a":1}] [bash ls] [write f.txt c] [think] [recall]`))
	var kinds []string
	for _, b := range r.Blocks {
		kinds = append(kinds, b.Type+":"+b.ToolName)
	}
	assert.Equal(t, []string{"thinking:", "text:", "tool_use:Write", "tool_use:Bash", "tool_use:T"}, kinds,
		"thinking, then text, then writes, bashes and other tools")
	assert.True(t, strings.HasPrefix(r.Blocks[1].Text, RecallPrefix))

	for _, bad := range []string{"[write x y", "[bash echo", "[write ]", "[bash  ]", `[tool X {"a":1]`, `[tool X {"a":1} extra]`, `[tool X {a:1}]`, "[tool ]"} {
		r := DefaultScript()(userReq("", bad))
		require.Len(t, r.Blocks, 1, bad)
		assert.Contains(t, r.Blocks[0].Text, "(fakeapi ignored: ", bad)
	}
}

func TestThinkEchoThinksTheUsersText(t *testing.T) {
	r := DefaultScript()(userReq("", "<img src=x> [think-echo]"))
	require.Len(t, r.Blocks, 2)
	assert.Equal(t, Block{Type: BlockThinking, Text: "<img src=x> [think-echo]"}, r.Blocks[0])
	assert.Equal(t, Block{Type: BlockText, Text: "You said: <img src=x> [think-echo]"}, r.Blocks[1])
}

func TestScriptAwaitFileHoldsTheFollowUpUntilTheFileExists(t *testing.T) {
	gate := t.TempDir() + "/go"
	note := "<system-reminder><task-notification><summary>first [await-file " + gate + "]</summary></task-notification></system-reminder>"
	r := DefaultScript()(&Request{Model: "m", Stream: true, Messages: []Message{{Role: "user", Content: []ContentBlock{{Type: "text", Text: note}}}}})
	require.NotNil(t, r.Hold)
	assert.True(t, strings.HasPrefix(r.Blocks[0].Text, FollowUpPrefix), r.Blocks[0].Text)
	select {
	case <-r.Hold:
		t.Fatal("the hold ended before the file existed")
	default:
	}
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	<-r.Hold // ends once the file exists (the test's own deadline bounds a hang)
}

func TestPlanMarkersSendTheLimitHeaders(t *testing.T) {
	r := DefaultScript()(userReq("", "[plan-warning] hello"))
	require.Equal(t, "allowed_warning", r.Headers.Get("anthropic-ratelimit-unified-status"))
	require.Equal(t, "0.92", r.Headers.Get("anthropic-ratelimit-unified-5h-utilization"))
	require.Zero(t, r.Status, "the reply itself goes through")
	r = DefaultScript()(userReq("", "[plan-rejected] hello"))
	require.Equal(t, 429, r.Status)
	require.Equal(t, "rejected", r.Headers.Get("anthropic-ratelimit-unified-status"))
}
