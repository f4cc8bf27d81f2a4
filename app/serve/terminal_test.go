package serve_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/consoleclient"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/serve"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/terminal"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// termServer is browser mode with terminals: the real terminal service (real PTYs, /bin/sh on an empty PATH).
type termServer struct {
	srv   *serve.Server
	terms *terminal.Service
	m     *session.Manager
}

func startTermServer(t *testing.T, m *session.Manager, claude string, env []string) *termServer {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
	t.Setenv("ENV", "")
	terms := terminal.New(terminal.Options{Shell: []string{"/bin/sh"}, Env: env, Logger: zerolog.Nop()})
	srv := serveConsole(t, console.Options{Sessions: m, Version: "test", Terminals: terms,
		Claude: func() (string, error) { return claude, nil }}, terms.Shutdown)
	return &termServer{srv: srv, terms: terms, m: m}
}

// termClient is the console's side of terminals over the WebSocket (app/internal/consoleclient): calls, and
// each terminal's output decoded.
type termClient struct {
	t      *testing.T
	client *consoleclient.Client
	mu     sync.Mutex
	cond   *sync.Cond
	out    map[string]*bytes.Buffer
	exits  map[string]int
	closed bool
}

func dialTerm(t *testing.T, s *termServer) *termClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := &termClient{t: t, out: map[string]*bytes.Buffer{}, exits: map[string]int{}}
	c.cond = sync.NewCond(&c.mu)
	client, err := consoleclient.Dial(ctx, s.srv.Addr().String(), consoleclient.Options{
		Token:      tokenOf(s.srv.URL()),
		OnTerminal: c.collect,
		OnClose:    func() { c.locked(func() { c.closed = true }) },
	})
	require.NoError(t, err)
	c.client = client
	t.Cleanup(client.Close)
	return c
}

// locked runs f under the client's lock and wakes every waitFor.
func (c *termClient) locked(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
	c.cond.Broadcast()
}

func (c *termClient) collect(o console.TerminalOutput) {
	data, err := base64.StdEncoding.DecodeString(o.Data)
	require.NoError(c.t, err)
	c.locked(func() {
		b := c.out[o.Terminal]
		if b == nil {
			b = &bytes.Buffer{}
			c.out[o.Terminal] = b
		}
		require.Equal(c.t, b.Len(), o.Offset, "no output is lost at this pace")
		b.Write(data)
		if o.Exited {
			c.exits[o.Terminal] = *o.ExitCode
		}
	})
}

func (c *termClient) call(method string, params any, out any) *console.Error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	err := c.client.Call(ctx, method, params, out)
	if ce, ok := consoleclient.ConsoleError(err); ok {
		return ce
	}
	require.NoError(c.t, err)
	return nil
}

// waitFor blocks until cond holds; the deadline only ends a hung test.
func (c *termClient) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	timer := time.AfterFunc(60*time.Second, func() { c.mu.Lock(); c.cond.Broadcast(); c.mu.Unlock() })
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		if c.closed || time.Now().After(deadline) {
			c.t.Fatalf("never saw %s", what)
		}
		c.cond.Wait()
	}
}

func (c *termClient) waitOutput(id, text string) {
	c.t.Helper()
	c.waitFor(text, func() bool { return c.out[id] != nil && strings.Contains(c.out[id].String(), text) })
}

func (c *termClient) input(id, text string) {
	c.t.Helper()
	require.Nil(c.t, c.call("terminalInput", console.TerminalInputParams{Terminal: id, Data: text}, nil))
}

// standInClaude writes a stand-in for `claude auth login`: the real one prints a URL for Anthropic's OAuth page and
// reads back the code, and that server cannot be reached from here. Where the real one saves credentials, this one
// writes a marker into the config dir it was given, proving the sign-in ran in Baton's.
func standInClaude(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "claude")
	script := `#!/bin/sh
[ "$1 $2" = "auth login" ] || { echo "stand-in: unexpected args $*"; exit 2; }
printf 'Browser didn%st open? Use the url below to sign in:\nhttps://claude.ai/oauth/authorize?state=STANDIN\n' "'"
printf 'Paste code here if prompted > '
read code
printf 'signed in with a code of %s characters\n' "${#code}" > "$CLAUDE_CONFIG_DIR/standin-login"
printf 'Login successful.\n'
`
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

func TestSignInRunsClaudesOwnLoginInABatonTerminal(t *testing.T) {
	config := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", config) // Baton's config dir, as the host runs it
	m := session.NewManager(session.Config{SidecarPath: "/nonexistent", Logger: zerolog.Nop()})
	s := startTermServer(t, m, standInClaude(t), nil)

	// No terminal without the token: the handshake is refused before any call can be made.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := dialWS(ctx, s.srv.Addr().String(), "", nil)
	require.Error(t, err)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	_, resp, err = dialWS(ctx, s.srv.Addr().String(), "not-the-token", nil)
	require.Error(t, err)
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.Empty(t, s.terms.List("", true), "nothing was started for a refused client")

	c := dialTerm(t, s)
	var info console.TerminalInfo
	require.Nil(t, c.call("terminalSignIn", console.TerminalSizeParams{Cols: 100, Rows: 30}, &info))
	require.Equal(t, "Sign in", info.Title)
	c.waitOutput(info.Terminal, "https://claude.ai/oauth/authorize?state=STANDIN")
	c.waitOutput(info.Terminal, "Paste code here if prompted > ")
	c.input(info.Terminal, "abc123\r")
	c.waitOutput(info.Terminal, "Login successful.")
	c.waitFor("the login's exit", func() bool { _, ok := c.exits[info.Terminal]; return ok })
	require.Equal(t, 0, c.exits[info.Terminal])
	data, err := os.ReadFile(filepath.Join(config, "standin-login"))
	require.NoError(t, err)
	require.Equal(t, "signed in with a code of 6 characters\n", string(data))
}

func TestASessionShellRunsInItsFolderOverTheWebSocketAndEndsWithIt(t *testing.T) {
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	t.Cleanup(api.Close)
	home := testenv.NewHome(t)
	env := append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude)
	m := session.NewManager(session.Config{SidecarPath: testenv.SidecarPath(t), Env: env, Logger: zerolog.Nop()})
	s := startTermServer(t, m, claude, nil)
	project := testenv.NewProject(t)
	c := dialTerm(t, s)

	var ref console.SessionRef
	require.Nil(t, c.call("startSession", map[string]any{"cwd": project}, &ref))
	e := c.call("terminalOpen", console.TerminalOpenParams{Session: ref.Session, Cols: 0, Rows: 24}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeBadRequest, e.Code)
	var info console.TerminalInfo
	require.Nil(t, c.call("terminalOpen", console.TerminalOpenParams{Session: ref.Session, Cols: 80, Rows: 24}, &info))
	require.Equal(t, ref.Session, info.Session)

	c.input(info.Terminal, "printf 'in %s\\n' \"$PWD\" > where.txt; printf 'DONE%s\\n' _OK\r")
	c.waitOutput(info.Terminal, "DONE_OK")
	data, err := os.ReadFile(filepath.Join(project, "where.txt"))
	require.NoError(t, err)
	real, err := filepath.EvalSymlinks(project)
	require.NoError(t, err)
	require.Contains(t, []string{"in " + project + "\n", "in " + real + "\n"}, string(data))

	var list console.TerminalList
	require.Nil(t, c.call("terminalList", console.TerminalListParams(ref), &list))
	require.Len(t, list.Terminals, 1)
	var back console.TerminalScrollback
	require.Nil(t, c.call("terminalScrollback", console.TerminalRef{Terminal: info.Terminal}, &back))
	kept, err := base64.StdEncoding.DecodeString(back.Data)
	require.NoError(t, err)
	require.Contains(t, string(kept), "DONE_OK", "a reloaded console redraws from the scrollback")

	require.Nil(t, c.call("closeSession", console.SessionRef{Session: ref.Session}, nil))
	c.waitFor("the shell's end with its session", func() bool { _, ok := c.exits[info.Terminal]; return ok })
	c.waitFor("the session's terminals gone", func() bool { return len(s.terms.List(ref.Session, false)) == 0 })
	e = c.call("terminalInput", console.TerminalInputParams{Terminal: info.Terminal, Data: "x"}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeNotFound, e.Code)
}
