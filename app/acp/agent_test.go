package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// client drives Serve over pipes, as an editor does over stdio. No session starts in these tests: the manager
// launches no process until one does.
type client struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func newClient(t *testing.T) *client {
	t.Helper()
	return newClientWith(t, Config{})
}

// newClientWith serves cfg (its Sessions, Version and Logger filled in).
func newClientWith(t *testing.T, cfg Config) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, out: newScanner(outR), done: make(chan error, 1)}
	cfg.Sessions, cfg.Version, cfg.Logger = session.NewManager(session.Config{Logger: zerolog.Nop()}), "test", zerolog.Nop()
	go func() {
		c.done <- Serve(context.Background(), cfg, inR, outW)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		_ = inW.Close()
		require.NoError(t, <-c.done)
	})
	return c
}

func newScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	return sc
}

func (c *client) send(line string) {
	c.t.Helper()
	_, err := io.WriteString(c.in, line+"\n")
	require.NoError(c.t, err)
}

type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func (c *client) next() reply {
	c.t.Helper()
	require.True(c.t, c.out.Scan(), "the agent wrote no line")
	var r reply
	require.NoError(c.t, json.Unmarshal(c.out.Bytes(), &r), "not JSON: %s", c.out.Text())
	return r
}

func (c *client) initialize() {
	c.t.Helper()
	c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"auth":{"terminal":true}}}}`)
	r := c.next()
	require.Nil(c.t, r.Error)
	var res initializeResponse
	require.NoError(c.t, json.Unmarshal(r.Result, &res))
	require.Equal(c.t, 1, res.ProtocolVersion)
	require.True(c.t, res.AgentCapabilities.LoadSession)
	require.NotNil(c.t, res.AgentCapabilities.SessionCapabilities.List)
	require.Equal(c.t, []string{LoginFlag}, res.AuthMethods[0].Args)
}

func TestRequestsBeforeInitializeAreRefusedAndServingGoesOn(t *testing.T) {
	c := newClient(t)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	r := c.next()
	require.Equal(t, codeInvalidRequest, r.Error.Code)
	require.JSONEq(t, `1`, string(r.ID))
	c.initialize()
}

func TestBadInputGetsTheSpecificationsAnswer(t *testing.T) {
	c := newClient(t)
	c.initialize()
	cases := []struct {
		line string
		id   string
		code int
	}{
		{`{not json`, `null`, codeParseError},
		{`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, `null`, codeInvalidRequest},
		{`{"jsonrpc":"1.0","id":7,"method":"session/list"}`, `7`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":8}`, `8`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"session/list"}`, `null`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":"s","method":"no/such"}`, `"s"`, codeMethodNotFound},
		{`{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"x","prompt":[]}}`, `9`, codeNotFound},
		{`{"jsonrpc":"2.0","id":10,"method":"session/new","params":{"cwd":"relative","mcpServers":[]}}`, `10`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":11,"method":"session/set_mode","params":"nope"}`, `11`, codeInvalidParams},
	}
	for _, tc := range cases {
		c.send(tc.line)
		r := c.next()
		require.NotNil(t, r.Error, tc.line)
		require.Equal(t, tc.code, r.Error.Code, tc.line)
		require.JSONEq(t, tc.id, string(r.ID), tc.line)
	}
	// An unknown notification is ignored: the next answer is the next request's.
	c.send(`{"jsonrpc":"2.0","method":"no/such/notification","params":{}}`)
	c.send(`{"jsonrpc":"2.0","id":12,"method":"session/close","params":{"sessionId":"x"}}`)
	r := c.next()
	require.JSONEq(t, `12`, string(r.ID))
	require.Equal(t, codeNotFound, r.Error.Code)
}

func TestAuthenticateSaysHowToSignIn(t *testing.T) {
	c := newClientWith(t, Config{SignedIn: func(context.Context) error { return errors.New("Not signed in.") }})
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"authenticate","params":{"methodId":"claude-login"}}`)
	r := c.next()
	require.NotNil(t, r.Error)
	require.Equal(t, codeAuthRequired, r.Error.Code)
	require.Contains(t, r.Error.Message, "Not signed in. Sign in")
	require.Contains(t, r.Error.Message, "claude auth login")
}

// A client that authenticates after every initialize (CodeCompanion) goes on when Claude Code is signed in.
func TestAuthenticateSucceedsWhenSignedIn(t *testing.T) {
	asked := 0
	c := newClientWith(t, Config{SignedIn: func(context.Context) error { asked++; return nil }})
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"authenticate","params":{"methodId":"claude-login"}}`)
	r := c.next()
	require.Nil(t, r.Error)
	require.JSONEq(t, `{}`, string(r.Result))
	require.Equal(t, 1, asked)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"authenticate","params":{"methodId":"api-key"}}`)
	require.Equal(t, codeInvalidParams, c.next().Error.Code)
}

// A canceled prompt answers "cancelled" however its turn ends; the others answer as their turns end.
func TestACancelledTurnAnswersCancelledWhateverEndsIt(t *testing.T) {
	s := &acpSession{waiting: map[string]waiter{}, cancelled: map[string]bool{}}
	ends := map[string]chan turnEnd{}
	for _, turn := range []string{"a", "b", "c"} {
		ends[turn] = make(chan turnEnd, 1)
		s.waiting[turn] = waiter{end: ends[turn]}
	}
	s.cancelled["a"], s.cancelled["b"] = true, true
	s.end("a", turnEnd{stop: stopEndTurn})
	s.end("b", turnEnd{err: errorf(codeInternalError, "failed")})
	s.end("c", turnEnd{stop: stopReason("max_tokens")})
	s.end("unknown", turnEnd{stop: stopEndTurn}) // a turn no prompt waits for (a follow-up) is nobody's
	require.Equal(t, turnEnd{stop: stopCancelled}, <-ends["a"])
	require.Equal(t, turnEnd{stop: stopCancelled}, <-ends["b"])
	require.Equal(t, turnEnd{stop: stopMaxTokens}, <-ends["c"])
	require.Empty(t, s.waiting)
	require.Empty(t, s.cancelled)
}
