package acp

import (
	"encoding/json"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/stretchr/testify/require"
)

func encode(t *testing.T, us []update) []string {
	t.Helper()
	out := make([]string, 0, len(us))
	for _, u := range us {
		b, err := json.Marshal(sessionNotification{SessionID: "s", Update: u})
		require.NoError(t, err)
		out = append(out, string(b))
	}
	return out
}

func TestStreamedMessagesBecomeChunksOnce(t *testing.T) {
	tr := newTranslator(false, "/p")
	var got []update
	for _, ev := range []activity.Event{
		{Kind: activity.TurnStarted, Prompt: "hi"},
		{Kind: activity.MessageDelta, MessageID: "m1", Block: activity.MessageBlockThinking, Text: "hmm"},
		{Kind: activity.MessageDelta, MessageID: "m1", Block: activity.MessageBlockText, Text: "Hel"},
		{Kind: activity.MessageDelta, MessageID: "m1", Block: activity.MessageBlockText, Text: "lo"},
		{Kind: activity.MessageCompleted, MessageID: "m1", Role: activity.MessageRoleAssistant, Text: "Hello"},
		{Kind: activity.MessageCompleted, MessageID: "m2", Role: activity.MessageRoleAssistant, Text: "whole"},
	} {
		got = append(got, tr.updates(ev)...)
	}
	require.Equal(t, []string{
		`{"sessionId":"s","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"},"messageId":"m1"}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hel"},"messageId":"m1"}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"lo"},"messageId":"m1"}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"whole"},"messageId":"m2"}}`,
	}, encode(t, got))
}

func TestReplayCarriesThePersonsMessages(t *testing.T) {
	tr := newTranslator(true, "/p")
	var got []update
	for _, ev := range []activity.Event{
		{Kind: activity.TurnStarted, Prompt: "hello there", UUID: "u1"},
		{Kind: activity.TurnStarted, Prompt: "a notification", Origin: activity.TurnOriginTaskNotification},
		{Kind: activity.MessageCompleted, Role: activity.MessageRoleAssistant, Text: "You said: hello there"},
	} {
		got = append(got, tr.updates(ev)...)
	}
	require.Equal(t, []string{
		`{"sessionId":"s","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hello there"},"messageId":"u1"}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"You said: hello there"}}}`,
	}, encode(t, got))
}

func TestAWriteIsADiffThatStaysWhenItCompletes(t *testing.T) {
	tr := newTranslator(false, "/p")
	before := "old\n"
	started := tr.updates(activity.Event{Kind: activity.ToolStarted, ToolUseID: "t1", Name: "Write", Title: "Write a.txt",
		ToolKind: activity.ToolKindWrite, Path: "/p/a.txt", Input: json.RawMessage(`{"file_path":"/p/a.txt","content":"new\n"}`),
		FileBefore: &activity.FileBefore{Path: "/p/a.txt", Text: &before}})
	done := tr.updates(activity.Event{Kind: activity.ToolCompleted, ToolUseID: "t1", Output: "File created"})
	require.Equal(t, []string{
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Write a.txt","kind":"edit","status":"in_progress",` +
			`"content":[{"type":"diff","path":"/p/a.txt","oldText":"old\n","newText":"new\n"}],"locations":[{"path":"/p/a.txt"}],` +
			`"rawInput":{"file_path":"/p/a.txt","content":"new\n"}}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","rawOutput":"File created"}}`,
	}, encode(t, append(started, done...)))
}

func TestPlanCommandsModeAndUsage(t *testing.T) {
	tr := newTranslator(false, "/p")
	total, max := int64(1200), int64(200000)
	cost := 0.25
	var got []update
	for _, ev := range []activity.Event{
		{Kind: activity.PlanUpdated, Items: []activity.PlanItem{{ID: "1", Content: "read", Status: activity.PlanStatusCompleted},
			{ID: "2", Content: "write", Status: activity.PlanStatusInProgress}}},
		{Kind: activity.CommandsUpdated, Commands: []activity.CommandEntry{{Name: "review", Description: "Review", ArgumentHint: "[pr]"}}},
		{Kind: activity.SessionUpdated, PermissionMode: activity.PermissionModePlan},
		{Kind: activity.ContextUpdated, TotalTokens: &total, MaxTokens: &max},
		{Kind: activity.TurnCompleted, CostUsd: &cost},
	} {
		got = append(got, tr.updates(ev)...)
	}
	require.Equal(t, []string{
		`{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"read","priority":"medium","status":"completed"},{"content":"write","priority":"medium","status":"in_progress"}]}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review","input":{"hint":"[pr]"}}]}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"current_mode_update","currentModeId":"plan"}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"usage_update","used":1200,"size":200000}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"usage_update","used":1200,"size":200000,"cost":{"amount":0.25,"currency":"USD"}}}`,
	}, encode(t, got))
}

func TestEveryKindTranslatesWithoutPanicking(t *testing.T) {
	tr := newTranslator(true, "/p")
	for _, k := range activity.Kinds {
		_ = tr.updates(activity.Event{Kind: k})
	}
	for _, k := range activity.ToolKindValues {
		require.NotEmpty(t, acpToolKind(k))
	}
}

func TestPermissionOptionsMapToBatonsVerdicts(t *testing.T) {
	want := map[string]activity.Verdict{optAllowOnce: activity.VerdictAllow, optAllowAlways: activity.VerdictAllowAlways,
		optRejectOnce: activity.VerdictDeny, optRejectAlways: activity.VerdictDeny}
	for _, o := range toolOptions {
		a, ok := verdictOf(o.OptionID)
		require.True(t, ok)
		require.Equal(t, want[o.Kind], a.Verdict, o.Kind)
	}
	_, ok := verdictOf("made-up")
	require.False(t, ok)
}

func TestPromptPartsCarryEmbeddedContextAndImages(t *testing.T) {
	text, images, err := promptParts([]contentBlock{{Type: "text", Text: "look at "}, {Type: "resource_link", URI: "file:///p/a.go", Name: "a.go"},
		{Type: "resource", Resource: &embeddedResource{URI: "file:///p/b.go", Text: "package b"}},
		{Type: "image", Data: "AAAA", MimeType: "image/png"}})
	require.NoError(t, err)
	require.Equal(t, "look at @file:///p/a.go\n<context ref=\"file:///p/b.go\">\npackage b\n</context>", text)
	require.Equal(t, []protocol.PromptImage{{MediaType: "image/png", Data: "AAAA"}}, images)
	_, images, err = promptParts([]contentBlock{{Type: "image", Data: "AAAA", MimeType: "image/jpeg"}})
	require.NoError(t, err, "an image alone is a prompt")
	require.Len(t, images, 1)
	for _, bad := range [][]contentBlock{nil, {{Type: "image", Data: "AAAA", MimeType: "image/tiff"}}, {{Type: "audio", Data: "AAAA"}}} {
		_, _, err = promptParts(bad)
		require.Error(t, err)
	}
}

func TestPlanApprovalChoosesTheModeItContinuesIn(t *testing.T) {
	for id, want := range map[string]activity.PermissionMode{optAllowAlways: activity.PermissionModeAcceptEdits,
		optAllowOnce: activity.PermissionModeDefault} {
		a, ok := planVerdictOf(id)
		require.True(t, ok)
		require.Equal(t, activity.VerdictAllow, a.Verdict)
		require.Equal(t, want, a.Mode)
	}
	a, ok := planVerdictOf(optRejectOnce)
	require.True(t, ok)
	require.Equal(t, activity.VerdictDeny, a.Verdict)
}
