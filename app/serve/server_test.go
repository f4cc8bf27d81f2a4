package serve_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/internal/testenv/consolews"
	"github.com/baton-console/baton/app/serve"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

type served struct {
	srv     *serve.Server
	url     string
	token   string
	project string
	api     *fakeapi.Server
}

// startServed runs browser mode in-process over the real session runtime (real sidecar, SDK and claude CLI
// against the scripted Messages API).
func startServed(t *testing.T) *served { return startServedWith(t, nil) }

// startServedWith lets a test adjust the session manager's configuration first.
func startServedWith(t *testing.T, configure func(*session.Config)) *served {
	t.Helper()
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	t.Cleanup(api.Close)
	home := testenv.NewHome(t)
	env := append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude)
	cfg := session.Config{SidecarPath: testenv.SidecarPath(t), Env: env, Logger: zerolog.Nop()}
	if configure != nil {
		configure(&cfg)
	}
	m := session.NewManager(cfg)
	srv := serveConsole(t, console.Options{Sessions: m, Version: "test"}, nil)
	require.True(t, srv.Loopback())
	return &served{srv: srv, url: srv.URL(), token: tokenOf(srv.URL()), project: testenv.NewProject(t), api: api}
}

// serveConsole serves a console over o.Sessions on a loopback port until the test ends; then the server stops,
// stop runs (a service the console used), the sessions shut down and the console lets go.
func serveConsole(t *testing.T, o console.Options, stop func()) *serve.Server {
	t.Helper()
	o.Transport, o.Logger = "websocket", zerolog.Nop()
	api := console.New(o)
	srv, err := serve.Listen(serve.Options{Listen: "127.0.0.1:0", API: api, Sessions: o.Sessions, Host: o.Host, Logger: zerolog.Nop()})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Serve(ctx); close(done) }()
	t.Cleanup(func() {
		cancel()
		<-done
		if stop != nil {
			stop()
		}
		sctx, scancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer scancel()
		o.Sessions.Shutdown(sctx)
		console.Release(api)
	})
	return srv
}

func TestWebSocketChecksOrigin(t *testing.T) {
	s := startServed(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := dialWS(ctx, s.srv.Addr().String(), s.token, http.Header{"Origin": {"http://evil.example"}})
	require.Error(t, err)
	require.NotNil(t, resp)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
}

// wsClient is the console's WebSocket client the tests share (testenv/consolews), under the names used here.
type wsClient struct {
	*consolews.Client
	t *testing.T
}

func dial(t *testing.T, s *served) *wsClient {
	t.Helper()
	return &wsClient{Client: consolews.Connect(t, s.srv.Addr().String(), s.token), t: t}
}

func (c *wsClient) call(method string, params any, out any) *console.Error {
	c.t.Helper()
	return c.Call(method, params, out)
}

func (c *wsClient) waitEvent(pred func(activity.Event) bool) activity.Event {
	c.t.Helper()
	return c.WaitEvent(pred)
}

func TestCallsAndErrorsOverTheWebSocket(t *testing.T) {
	s := startServed(t)
	c := dial(t, s)
	var caps console.Capabilities
	require.Nil(t, c.call("capabilities", map[string]any{}, &caps))
	require.Equal(t, "websocket", caps.Transport)
	require.False(t, caps.FolderPicker, "a browser has no native folder picker")

	e := c.call("launchRockets", map[string]any{}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeBadRequest, e.Code)
	e = c.call("sendPrompt", map[string]any{"session": "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "prompt": "hi"}, nil)
	require.NotNil(t, e)
	require.Equal(t, console.CodeNotFound, e.Code)
	e = c.call("startSession", map[string]any{"cwd": "/no/such/folder"}, nil)
	require.NotNil(t, e)
	require.Contains(t, e.Message, "does not exist")
}

// A browser that reconnects gets back what lasts and can still answer a pending permission request.
func TestReconnectSeesAndAnswersAPendingPermission(t *testing.T) {
	s := startServed(t)
	first := dial(t, s)
	var ref console.SessionRef
	require.Nil(t, first.call("startSession", map[string]any{"cwd": s.project, "permissionMode": "default"}, &ref))
	var turn console.PromptResult
	require.Nil(t, first.call("sendPrompt", map[string]any{"session": ref.Session, "prompt": "[write kept.txt across reconnects]"}, &turn))
	req := first.waitEvent(func(ev activity.Event) bool { return ev.Kind == activity.PermissionRequested })
	first.Conn.CloseNow()

	second := dial(t, s)
	var snap console.Snapshot
	require.Nil(t, second.call("snapshot", map[string]any{}, &snap))
	require.Len(t, snap.Sessions, 1)
	live := snap.Sessions[0]
	require.Equal(t, ref.Session, live.Session)
	var pending, deltas int
	for _, ev := range live.Events {
		if ev.Kind == activity.PermissionRequested && ev.RequestID == req.RequestID {
			pending++
		}
		if ev.Kind == activity.PermissionSettled {
			pending--
		}
		if ev.Ephemeral {
			deltas++
		}
	}
	require.Equal(t, 1, pending, "the pending request is in the snapshot")
	require.Zero(t, deltas, "ephemeral pieces are never replayed")

	var ans console.AnswerResult
	require.Nil(t, second.call("answerPermission", map[string]any{"session": ref.Session, "requestId": req.RequestID, "verdict": "allow"}, &ans))
	require.True(t, ans.Settled)
	second.waitEvent(func(ev activity.Event) bool { return ev.Turn == turn.Turn && ev.Kind == activity.TurnCompleted })
	data, err := os.ReadFile(filepath.Join(s.project, "kept.txt"))
	require.NoError(t, err)
	require.Equal(t, "across reconnects\n", string(data))
}
