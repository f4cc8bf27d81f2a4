package serve_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// ansi matches the escape sequences a TUI draws with, so its text can be searched.
var ansi = regexp.MustCompile(`\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])`)

// screenText is what a terminal printed with the drawing stripped and no spaces, for finding words a TUI drew.
func (c *termClient) screenText(id string) string {
	if c.out[id] == nil {
		return ""
	}
	return strings.Join(strings.Fields(ansi.ReplaceAllString(c.out[id].String(), "")), "")
}

func (c *termClient) waitScreen(id, text string) {
	c.t.Helper()
	want := strings.Join(strings.Fields(text), "")
	c.waitFor(text, func() bool { return strings.Contains(c.screenText(id), want) })
}

// trustingHome is a Claude Code config that has finished its first-run screens, trusts project and accepts the
// scripted API's key, so the TUI opens straight onto the conversation.
func trustingHome(t *testing.T, home, project string) {
	t.Helper()
	key := testenv.FakeAPIKey
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"theme":                  "dark",
		"customApiKeyResponses":  map[string]any{"approved": []string{key[len(key)-min(20, len(key)):]}, "rejected": []string{}},
		"projects":               map[string]any{project: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}},
	}
	data, err := json.Marshal(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(home, ".claude", ".claude.json"), data, 0o600))
}

// Claude Code's own TUI on a console session: the session sleeps, the console's prompts wait, the real claude
// (against the scripted API) resumes the session in a Baton terminal, and once it exits the console continues
// from what the TUI added to the transcript.
func TestOpenInClaudeCodeHandsTheSessionToTheTUIAndBack(t *testing.T) {
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	t.Cleanup(api.Close)
	home := testenv.NewHome(t)
	project := testenv.NewProject(t)
	trustingHome(t, home, project)
	env := append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude)
	m := session.NewManager(session.Config{SidecarPath: testenv.SidecarPath(t), Env: env, Logger: zerolog.Nop()})
	s := startTermServer(t, m, claude, env)
	c := dialTerm(t, s)
	events := s.m.Subscribe(nil)
	t.Cleanup(events.Close)
	waitEvent := func(pred func(activity.Event) bool) activity.Event {
		t.Helper()
		for ev := range events.C() {
			if pred(ev) {
				return ev
			}
		}
		t.Fatal("the session's events ended")
		return activity.Event{}
	}

	var ref console.SessionRef
	require.Nil(t, c.call("startSession", map[string]any{"cwd": project}, &ref))
	var turn console.PromptResult
	require.Nil(t, c.call("sendPrompt", console.PromptParams{Session: ref.Session, Prompt: "first from the console"}, &turn))
	waitEvent(func(ev activity.Event) bool { return ev.Turn == turn.Turn && ev.Kind == activity.TurnCompleted })

	var info console.TerminalInfo
	require.Nil(t, c.call("terminalClaudeCode", console.TerminalOpenParams{Session: ref.Session, Cols: 120, Rows: 40}, &info))
	require.Equal(t, "Claude Code", info.Title)
	live, ok := s.m.Get(ref.Session)
	require.True(t, ok)
	require.True(t, live.State().Asleep, "the session's own query sleeps while the TUI writes its transcript")
	e := c.call("sendPrompt", console.PromptParams{Session: ref.Session, Prompt: "not now"}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeUnavailable, e.Code)
	e = c.call("setPermissionMode", map[string]any{"session": ref.Session, "mode": "plan"}, nil)
	require.NotNil(t, e, "a mode change would wake the session too")
	require.Equal(t, console.CodeUnavailable, e.Code)

	c.waitScreen(info.Terminal, "You said: first from the console") // the TUI resumed this session
	c.input(info.Terminal, "typed in the tui")
	c.waitScreen(info.Terminal, "typed in the tui")
	c.input(info.Terminal, "\r")
	c.waitScreen(info.Terminal, "You said: typed in the tui")
	c.input(info.Terminal, "/exit")
	c.waitScreen(info.Terminal, "/exit")
	c.input(info.Terminal, "\r")
	c.waitFor("the TUI's exit", func() bool { _, ok := c.exits[info.Terminal]; return ok })

	require.Nil(t, c.call("sendPrompt", console.PromptParams{Session: ref.Session, Prompt: "[recall]"}, &turn))
	done := waitEvent(func(ev activity.Event) bool {
		return ev.Turn == turn.Turn && ev.Kind == activity.MessageCompleted && strings.HasPrefix(ev.Text, fakeapi.RecallPrefix)
	})
	require.Contains(t, done.Text, "typed in the tui", "the console continues from what the TUI added")
	require.Contains(t, done.Text, "first from the console")
}
