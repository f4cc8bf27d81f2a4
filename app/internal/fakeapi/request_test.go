package fakeapi

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A body shaped like the CLI's: system as blocks, reminders before the typed text, string and
// block contents, tool_result content as a string and as blocks.
const cliLikeBody = `{
  "model": "claude-sonnet-4-5",
  "stream": true,
  "max_tokens": 32000,
  "system": [{"type":"text","text":"x-anthropic-billing-header: cc_version=2.1.332"},
             {"type":"text","text":"You are a Claude agent.","cache_control":{"type":"ephemeral"}}],
  "tools": [{"name":"Bash","input_schema":{}},{"name":"Write","input_schema":{}}],
  "messages": [
    {"role":"user","content":[
      {"type":"text","text":"<system-reminder>\n# Environment\n - Primary working directory: /home/u/my project\n - Platform: linux\n</system-reminder>"},
      {"type":"text","text":"first prompt"}]},
    {"role":"assistant","content":[{"type":"text","text":"You said: first prompt"}]},
    {"role":"user","content":"second prompt"},
    {"role":"assistant","content":[
      {"type":"thinking","thinking":"hmm","signature":"sig"},
      {"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}},
      {"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"/x"}}]},
    {"role":"user","content":[
      {"type":"tool_result","tool_use_id":"toolu_1","content":"a.txt\n\n<system-reminder>\nsome context\n</system-reminder>"},
      {"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[{"type":"text","text":"no such file"},{"type":"image","source":{}},{"type":"text","text":"really"}]},
      {"type":"text","text":"<system-reminder>\nqueued note\n</system-reminder>"}]}
  ]
}`

func TestDecodeRequestCLIShape(t *testing.T) {
	r, err := DecodeRequest([]byte(cliLikeBody), "/v1/messages?beta=true", "claude-code-20250219, interleaved-thinking-2025-05-14")
	require.NoError(t, err)

	assert.Equal(t, "claude-sonnet-4-5", r.Model)
	assert.True(t, r.Stream)
	assert.Equal(t, 32000, r.MaxTokens)
	assert.Equal(t, "/v1/messages?beta=true", r.Target)
	assert.Equal(t, []string{"claude-code-20250219", "interleaved-thinking-2025-05-14"}, r.Betas)
	assert.Equal(t, "x-anthropic-billing-header: cc_version=2.1.332\nYou are a Claude agent.", r.System)
	assert.Equal(t, []string{"Bash", "Write"}, r.ToolNames)
	assert.Equal(t, cliLikeBody, string(r.Raw))

	require.Len(t, r.Messages, 5)
	assert.Equal(t, []ContentBlock{{Type: "text", Text: "second prompt"}}, r.Messages[2].Content, "string content is one text block")
	tu := r.Messages[3].Content[1]
	assert.Equal(t, "tool_use", tu.Type)
	assert.Equal(t, "toolu_1", tu.ID)
	assert.Equal(t, "Bash", tu.Name)
	assert.JSONEq(t, `{"command":"ls"}`, string(tu.Input))
	assert.Equal(t, "hmm", r.Messages[3].Content[0].Thinking)

	assert.Equal(t, []ToolResult{
		{ToolUseID: "toolu_1", Content: "a.txt"},
		{ToolUseID: "toolu_2", Content: "no such file\nreally", IsError: true},
	}, r.LastToolResults(), "string and block content flatten; reminders and images are dropped")

	assert.Equal(t, "", r.LastUserText(), "the last user message holds only tool results and a reminder")
	assert.Equal(t, []string{"first prompt", "second prompt"}, r.UserTexts())
	assert.Equal(t, "/home/u/my project", r.WorkingDir(), "found in the first user message's reminder")
}

func TestDecodeRequestSystemStringAndWorkingDir(t *testing.T) {
	r, err := DecodeRequest([]byte(`{"model":"m","system":"Hello\nWorking directory: /srv/app  \nmore",
		"messages":[{"role":"user","content":"hi\n<system-reminder>x</system-reminder>\nthere"}]}`), "/v1/messages", "")
	require.NoError(t, err)
	assert.False(t, r.Stream)
	assert.Equal(t, "/srv/app", r.WorkingDir(), "system prompt first; trailing blanks trimmed")
	assert.Equal(t, "hi\n\nthere", r.LastUserText(), "an inline reminder is cut out of the text")
	assert.Nil(t, r.Betas)
	assert.Nil(t, r.LastToolResults())
}

func TestDecodeRequestEdgeCases(t *testing.T) {
	r, err := DecodeRequest([]byte(`{"model":"m","messages":[]}`), "", "")
	require.NoError(t, err)
	assert.Equal(t, "", r.LastUserText())
	assert.Empty(t, r.UserTexts())
	assert.Equal(t, "", r.WorkingDir())

	r, err = DecodeRequest([]byte(`{"model":"m","system":null,"messages":[{"role":"user","content":null},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":null}]}]}`), "", "")
	require.NoError(t, err)
	assert.Empty(t, r.Messages[0].Content)
	assert.Equal(t, []ToolResult{{ToolUseID: "t"}}, r.LastToolResults())

	for _, bad := range []string{`not json`, `{"messages":"x"}`, `{"system":42}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","content":{"a":1}}]}]}`} {
		_, err := DecodeRequest([]byte(bad), "", "")
		assert.Error(t, err, bad)
	}
}

func TestUserTextsBeforeWithoutUserMessage(t *testing.T) {
	assert.Nil(t, userTextsBefore([]Message{{Role: "assistant"}}, -1))
}
