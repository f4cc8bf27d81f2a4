// Package consolews is a minimal client of the console API over `baton serve`'s WebSocket, for tests: it dials /ws
// as the console does (its own Origin, the token offered as a subprotocol beside "baton"), makes calls and collects
// the events pushed to it.
package consolews

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"
)

// Dial opens /ws at addr as the console does; hdr may be nil, and an empty token offers none.
func Dial(ctx context.Context, addr, token string, hdr http.Header) (*websocket.Conn, *http.Response, error) {
	if hdr == nil {
		hdr = http.Header{}
	}
	if hdr.Get("Origin") == "" {
		hdr.Set("Origin", "http://"+addr)
	}
	opts := &websocket.DialOptions{HTTPHeader: hdr}
	if token != "" {
		opts.Subprotocols = []string{"baton", "baton.token." + token}
	}
	return websocket.Dial(ctx, "ws://"+addr+"/ws", opts)
}

// Client is one console connection: calls by id, and every event pushed to it in order.
type Client struct {
	t      testing.TB
	Conn   *websocket.Conn
	mu     sync.Mutex
	nextID int
	calls  map[int]chan json.RawMessage
	Events chan activity.Event
}

// Connect dials the console at addr with token; the connection closes when the test ends.
func Connect(t testing.TB, addr, token string) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := Dial(ctx, addr, token, nil)
	require.NoError(t, err)
	conn.SetReadLimit(16 << 20)
	c := &Client{t: t, Conn: conn, calls: map[int]chan json.RawMessage{}, Events: make(chan activity.Event, 4096)}
	go c.read()
	t.Cleanup(func() { conn.CloseNow() })
	return c
}

func (c *Client) read() {
	for {
		_, data, err := c.Conn.Read(context.Background())
		if err != nil {
			close(c.Events)
			return
		}
		var msg struct {
			ID     *int             `json:"id"`
			Type   string           `json:"type"`
			Event  activity.Event   `json:"event"`
			Events []activity.Event `json:"events"`
		}
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		switch msg.Type {
		case "event":
			c.Events <- msg.Event
			continue
		case "events": // events that waited together on the host, in order (API.md)
			for _, ev := range msg.Events {
				c.Events <- ev
			}
			continue
		}
		if msg.ID != nil {
			c.mu.Lock()
			ch := c.calls[*msg.ID]
			c.mu.Unlock()
			if ch != nil {
				ch <- data
			}
		}
	}
}

// CallReply is a call's answer on the wire: its result, or a console error.
type CallReply struct {
	Result json.RawMessage `json:"result"`
	Error  *console.Error  `json:"error"`
}

// Call makes one console call and decodes its result into out (which may be nil); a console error is returned.
func (c *Client) Call(method string, params any, out any) *console.Error {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan json.RawMessage, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	data, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	require.NoError(c.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	require.NoError(c.t, c.Conn.Write(ctx, websocket.MessageText, data))
	select {
	case raw := <-ch:
		var rep CallReply
		require.NoError(c.t, json.Unmarshal(raw, &rep))
		if rep.Error != nil {
			return rep.Error
		}
		if out != nil {
			require.NoError(c.t, json.Unmarshal(rep.Result, out))
		}
		return nil
	case <-ctx.Done():
		c.t.Fatalf("no reply to %s", method)
		return nil
	}
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
