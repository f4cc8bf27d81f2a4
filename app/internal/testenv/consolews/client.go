// Package consolews is the console client of tests over `baton serve`'s WebSocket: app/internal/consoleclient
// with a test's failures (a broken connection or a missing reply fails the test) and the pushed events in a
// channel.
package consolews

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/consoleclient"
	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
)

// Dial opens /ws at addr as the console does; hdr may be nil, and an empty token offers none.
func Dial(ctx context.Context, addr, token string, hdr http.Header) (*websocket.Conn, *http.Response, error) {
	return consoleclient.DialConn(ctx, addr, token, hdr)
}

// Client is one console connection: calls, and every event pushed to it in order.
type Client struct {
	t      testing.TB
	client *consoleclient.Client
	Conn   *websocket.Conn
	Events chan activity.Event
}

// Connect dials the console at addr with token; the connection closes when the test ends.
func Connect(t testing.TB, addr, token string) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events := make(chan activity.Event, 4096)
	c, err := consoleclient.Dial(ctx, addr, consoleclient.Options{
		Token:   token,
		OnEvent: func(_ time.Time, ev activity.Event) { events <- ev },
		OnClose: func() { close(events) },
	})
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return &Client{t: t, client: c, Conn: c.Conn(), Events: events}
}

// Call makes one console call and decodes its result into out (which may be nil); a console error is returned,
// anything else fails the test.
func (c *Client) Call(method string, params any, out any) *console.Error {
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

// WaitEvent returns the next pushed event pred accepts, waiting up to 90 s.
func (c *Client) WaitEvent(pred func(activity.Event) bool) activity.Event {
	c.t.Helper()
	timeout := time.After(90 * time.Second)
	for {
		select {
		case ev, ok := <-c.Events:
			require.True(c.t, ok, "the connection closed")
			if pred(ev) {
				return ev
			}
		case <-timeout:
			c.t.Fatal("timed out waiting for an event")
		}
	}
}
