package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// runtimeClient is a client of Serve over the real runtime (sidecar, SDK, claude) and the scripted API, run under
// -race: the prompt loop, the session pump and the permission calls share the agent's state.
func runtimeClient(t *testing.T) (*client, string) {
	t.Helper()
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	t.Cleanup(api.Close)
	home, project := testenv.NewHome(t), testenv.NewProject(t)
	m := session.NewManager(session.Config{SidecarPath: testenv.SidecarPath(t),
		Env: append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude), Logger: zerolog.Nop()})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, out: newScanner(outR), done: make(chan error, 1)}
	go func() {
		c.done <- Serve(context.Background(), Config{Sessions: m, Version: "test", Logger: zerolog.Nop()}, inR, outW)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		// Read what the sessions still send while they close (a turn's last updates), or their pumps block.
		go func() {
			for c.out.Scan() {
			}
		}()
		require.NoError(t, <-c.done)
	})
	return c, project
}

// line is any message the agent writes.
type line struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
	Params json.RawMessage `json:"params"`
}

func (c *client) line() line {
	c.t.Helper()
	require.True(c.t, c.out.Scan(), "the agent wrote no line")
	var l line
	require.NoError(c.t, json.Unmarshal(c.out.Bytes(), &l))
	return l
}

// until reads lines, answering permission requests with allow_once, until the answer to id.
func (c *client) until(id string) (line, []sessionNotificationIn) {
	c.t.Helper()
	var updates []sessionNotificationIn
	for {
		l := c.line()
		switch {
		case l.Method == mSessionUpdate:
			var n sessionNotificationIn
			require.NoError(c.t, json.Unmarshal(l.Params, &n))
			updates = append(updates, n)
		case l.Method == mRequestPermissn:
			c.send(`{"jsonrpc":"2.0","id":` + string(l.ID) + `,"result":{"outcome":{"outcome":"selected","optionId":"allow_once"}}}`)
		case l.Method == "" && string(l.ID) == id:
			return l, updates
		}
	}
}

type sessionNotificationIn struct {
	SessionID string `json:"sessionId"`
	Update    struct {
		SessionUpdate string `json:"sessionUpdate"`
		Status        string `json:"status"`
		CurrentModeID string `json:"currentModeId"`
		Content       json.RawMessage
	} `json:"update"`
}

func TestPromptsToolCallsAndCancelOverTheRealRuntime(t *testing.T) {
	c, project := runtimeClient(t)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + project + `","mcpServers":[]}}`)
	r, _ := c.until("1")
	require.Nil(t, r.Error)
	var ns newSessionResponse
	require.NoError(t, json.Unmarshal(r.Result, &ns))
	prompt := func(id, text string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"` + ns.SessionID +
			`","prompt":[{"type":"text","text":"` + text + `"}]}}`
	}

	c.send(prompt("2", "[write a.txt hi]"))
	r, updates := c.until("2")
	require.Nil(t, r.Error)
	require.JSONEq(t, `{"stopReason":"end_turn"}`, string(r.Result))
	var kinds []string
	for _, u := range updates {
		kinds = append(kinds, u.Update.SessionUpdate+":"+u.Update.Status)
	}
	require.Contains(t, kinds, "tool_call:in_progress")
	require.Contains(t, kinds, "tool_call_update:completed")

	// Cancel once the slow reply streams: the prompt answers cancelled, not an error.
	c.send(prompt("3", "[slow] go on"))
	for {
		l := c.line()
		if l.Method == mSessionUpdate && strings.Contains(string(l.Params), upAgentChunk) {
			break
		}
	}
	c.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"` + ns.SessionID + `"}}`)
	r, _ = c.until("3")
	require.Nil(t, r.Error)
	require.JSONEq(t, `{"stopReason":"cancelled"}`, string(r.Result))

	c.send(`{"jsonrpc":"2.0","id":4,"method":"session/close","params":{"sessionId":"` + ns.SessionID + `"}}`)
	r, _ = c.until("4")
	require.Nil(t, r.Error)
}

// Prompts sent back to back reach the runtime in the order they were sent, so their turns run in that order:
// each request is handled on its own goroutine, and without an order the later ones could be queued first.
func TestPromptsSentBackToBackRunInTheirOrder(t *testing.T) {
	c, project := runtimeClient(t)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + project + `","mcpServers":[]}}`)
	r, _ := c.until("1")
	require.Nil(t, r.Error)
	var ns newSessionResponse
	require.NoError(t, json.Unmarshal(r.Result, &ns))
	const n = 6
	var batch, want strings.Builder
	for i := range n {
		fmt.Fprintf(&batch, `{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"%s","prompt":[{"type":"text","text":"number %d"}]}}`+"\n", 10+i, ns.SessionID, i)
		fmt.Fprintf(&want, "You said: number %d", i)
	}
	c.send(strings.TrimSuffix(batch.String(), "\n")) // one write: the agent reads them all before any is handed over
	var said strings.Builder
	answered := 0
	for answered < n {
		l := c.line()
		switch {
		case l.Method == mSessionUpdate:
			said.WriteString(agentText(t, l.Params))
		case l.Method == "":
			require.Nil(t, l.Error)
			answered++
		}
	}
	require.Equal(t, want.String(), said.String())
}

// newRuntimeSession opens a session over the real runtime and returns its id.
func (c *client) newRuntimeSession(project string) string {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"` + project + `","mcpServers":[]}}`)
	r, _ := c.until("1")
	require.Nil(c.t, r.Error)
	var ns newSessionResponse
	require.NoError(c.t, json.Unmarshal(r.Result, &ns))
	return ns.SessionID
}

func promptLine(id int, sessionID, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":%q}]}}`,
		id, sessionID, text)
}

// A session/cancel read right after prompts (one write: none of them is handed to the runtime yet) cancels them
// all, and a prompt read after the cancel runs: the cancel acts on what the reading loop saw before it, not on
// which turns happened to be with the runtime when it was acted on. (The first prompt is large: its handler
// decodes it after the reading loop has passed it, so without that order the cancel would miss it.)
func TestACancelSentWithItsPromptsCancelsThem(t *testing.T) {
	c, project := runtimeClient(t)
	c.initialize()
	id := c.newRuntimeSession(project)
	batch := strings.Join([]string{
		promptLine(2, id, "[slow] first "+strings.Repeat("context ", 1<<17)),
		promptLine(3, id, "[slow] second"),
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"` + id + `"}}`,
		promptLine(4, id, "after the cancel"),
	}, "\n")
	c.send(batch)
	stops := map[string]string{}
	for len(stops) < 3 {
		l := c.line()
		if l.Method != "" {
			continue
		}
		require.Nil(t, l.Error, string(l.ID))
		var res promptResponse
		require.NoError(t, json.Unmarshal(l.Result, &res))
		stops[string(l.ID)] = res.StopReason
	}
	require.Equal(t, map[string]string{"2": stopCancelled, "3": stopCancelled, "4": stopEndTurn}, stops)
}

// A mode the client sets is told it once, before set_mode answers: set_mode and the runtime's report of the
// change it made are the same news.
func TestSetModeSendsOneModeUpdate(t *testing.T) {
	c, project := runtimeClient(t)
	c.initialize()
	id := c.newRuntimeSession(project)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"session/set_mode","params":{"sessionId":"` + id + `","modeId":"acceptEdits"}}`)
	r, updates := c.until("2")
	require.Nil(t, r.Error)
	// The prompt's turn ends after the runtime's report of the mode: its answer comes after every update of it.
	c.send(promptLine(3, id, "hello"))
	r, more := c.until("3")
	require.Nil(t, r.Error)
	modes := func(updates []sessionNotificationIn) []string {
		var out []string
		for _, u := range updates {
			if u.Update.SessionUpdate == upMode {
				out = append(out, u.Update.CurrentModeID)
			}
		}
		return out
	}
	require.Equal(t, []string{"acceptEdits"}, modes(updates), "before set_mode's answer")
	require.Empty(t, modes(more), "after it")
}

// A question of several choices is offered as one request per answer; the answers taken reach Claude joined as
// the console joins them.
func TestAMultipleChoiceQuestionTakesSeveralAnswers(t *testing.T) {
	c, project := runtimeClient(t)
	c.initialize()
	id := c.newRuntimeSession(project)
	const ask = `[tool AskUserQuestion {"questions":[{"question":"Which colours?","header":"Colours","multiSelect":true,` +
		`"options":[{"label":"Red","description":"warm"},{"label":"Green","description":"calm"},{"label":"Blue","description":"cool"}]}]}]`
	c.send(promptLine(2, id, ask))
	var titles []string
	var said strings.Builder
	for {
		l := c.line()
		if l.Method == mRequestPermissn {
			var req requestPermissionRequest
			require.NoError(t, json.Unmarshal(l.Params, &req))
			titles = append(titles, req.ToolCall.Title)
			choice := optLeave
			if !strings.Contains(req.ToolCall.Title, "Green") {
				choice = optPick
			}
			c.send(`{"jsonrpc":"2.0","id":` + string(l.ID) + `,"result":{"outcome":{"outcome":"selected","optionId":"` + choice + `"}}}`)
			continue
		}
		if l.Method == mSessionUpdate {
			said.WriteString(agentText(t, l.Params))
			continue
		}
		require.Equal(t, "2", string(l.ID))
		require.Nil(t, l.Error)
		require.JSONEq(t, `{"stopReason":"end_turn"}`, string(l.Result))
		break
	}
	require.Equal(t, []string{
		"Which colours? — Red (1 of 3; choose any)",
		"Which colours? — Green (2 of 3; choose any)",
		"Which colours? — Blue (3 of 3; choose any)",
	}, titles)
	require.Contains(t, said.String(), `"Which colours?"="Red, Blue"`)
}

// agentText is an agent_message_chunk's text ("" for any other update).
func agentText(t *testing.T, params json.RawMessage) string {
	t.Helper()
	var n sessionNotificationIn
	require.NoError(t, json.Unmarshal(params, &n))
	if n.Update.SessionUpdate != upAgentChunk {
		return ""
	}
	var block contentBlock
	require.NoError(t, json.Unmarshal(n.Update.Content, &block))
	return block.Text
}

// A permission request the client leaves unanswered is withdrawn ($/cancel_request) once its turn is cancelled;
// its late answer harms nothing, and the session goes on.
func TestAnUnansweredPermissionRequestIsWithdrawnWithItsTurn(t *testing.T) {
	c, project := runtimeClient(t)
	c.initialize()
	id := c.newRuntimeSession(project)
	c.send(promptLine(2, id, "[write never.txt no]"))
	var asked line
	for asked.Method != mRequestPermissn {
		asked = c.line()
	}
	c.send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"` + id + `"}}`)
	var withdrawn []string
	for {
		l := c.line()
		if l.Method == mCancelRequest {
			var p cancelRequestParams
			require.NoError(t, json.Unmarshal(l.Params, &p))
			withdrawn = append(withdrawn, fmt.Sprint(p.RequestID))
			continue
		}
		if l.Method == "" && string(l.ID) == "2" {
			require.Nil(t, l.Error)
			require.JSONEq(t, `{"stopReason":"cancelled"}`, string(l.Result))
			break
		}
	}
	require.Equal(t, []string{string(asked.ID)}, withdrawn, "the request withdrawn by the prompt's answer")
	require.NoFileExists(t, filepath.Join(project, "never.txt"))
	c.send(`{"jsonrpc":"2.0","id":` + string(asked.ID) + `,"result":{"outcome":{"outcome":"cancelled"}}}`)
	c.send(promptLine(3, id, "still there"))
	r, _ := c.until("3")
	require.Nil(t, r.Error)
	require.JSONEq(t, `{"stopReason":"end_turn"}`, string(r.Result))
}
