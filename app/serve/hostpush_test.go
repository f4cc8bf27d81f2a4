package serve_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/serve"
	"github.com/baton-console/baton/app/session"
	"github.com/coder/websocket"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// Sign-in, provisioning and index changes, and sessions changed outside Baton, reach a connected browser as they happen.
func TestHostStateIsPushedToTheBrowser(t *testing.T) {
	m := session.NewManager(session.Config{SidecarPath: "/nonexistent", Logger: zerolog.Nop()})
	host := console.NewHostState()
	api := console.New(console.Options{Sessions: m, Transport: "websocket", Host: host, Logger: zerolog.Nop()})
	defer console.Release(api)
	srv, err := serve.Listen(serve.Options{API: api, Sessions: m, Host: host, Logger: zerolog.Nop()})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.Serve(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer dcancel()
	conn, _, err := dialWS(dctx, srv.Addr().String(), tokenOf(srv.URL()), nil)
	require.NoError(t, err)
	defer conn.CloseNow()

	// The subscription starts when the connection is served; a snapshot call proves it is in place.
	require.NoError(t, conn.Write(dctx, websocket.MessageText, []byte(`{"id":1,"method":"snapshot","params":{}}`)))
	_, snap, err := conn.Read(dctx)
	require.NoError(t, err)
	require.Contains(t, string(snap), `"index":{"state":"unknown"`, "the snapshot carries the index's state")

	host.SetProvision(console.ProvisionState{State: "downloading", Bytes: 10, Total: 100, Source: "cdn"})
	host.SetAuth(console.AuthState{Status: auth.StatusSignedIn, Method: auth.MethodAPIKey, Summary: "Using an API key"})
	host.SessionsChanged()
	host.SetIndex(console.IndexState{State: console.IndexStatusBuilding, FilesDone: 2, FilesTotal: 9, BytesDone: 20, BytesTotal: 90})
	var got []string
	for len(got) < 4 {
		_, data, err := conn.Read(dctx)
		require.NoError(t, err)
		var msg struct {
			Type      string                  `json:"type"`
			Auth      *console.AuthState      `json:"auth"`
			Provision *console.ProvisionState `json:"provision"`
			Index     *console.IndexState     `json:"index"`
		}
		require.NoError(t, json.Unmarshal(data, &msg))
		switch msg.Type {
		case "provision":
			require.Equal(t, int64(10), msg.Provision.Bytes)
			got = append(got, "provision")
		case "auth":
			require.Equal(t, auth.StatusSignedIn, msg.Auth.Status)
			got = append(got, "auth")
		case "sessions":
			got = append(got, "sessions")
		case "index":
			require.Equal(t, console.IndexState{State: console.IndexStatusBuilding, FilesDone: 2, FilesTotal: 9, BytesDone: 20, BytesTotal: 90}, *msg.Index)
			got = append(got, "index")
		}
	}
	require.ElementsMatch(t, []string{"provision", "auth", "sessions", "index"}, got)
}
