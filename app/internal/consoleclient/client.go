// Package consoleclient is a client of the console API over `baton serve`'s WebSocket, speaking it as the page
// does: it dials /ws, makes calls by id and hands each push (events, terminal output) to its caller. The tests'
// client (testenv/consolews) and the benches share it, so the wire is read one way everywhere outside the page.
package consoleclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/console"
	"github.com/coder/websocket"
)

// Options say how to dial and where pushes go. Every callback runs on the client's one reader, in wire order.
type Options struct {
	// Token is offered as a subprotocol beside "baton", as the page does; empty offers none (a caller may send
	// it in Header instead).
	Token string
	// Header holds extra request headers; Origin defaults to the host's own.
	Header http.Header
	// ReadLimit bounds one message (default 16 MB).
	ReadLimit int64
	// OnEvent gets each pushed event with when its message was read (events pushed together share it).
	OnEvent func(at time.Time, ev activity.Event)
	// OnTerminal gets each terminal output pushed.
	OnTerminal func(console.TerminalOutput)
	// OnClose runs once the connection is gone, after the last push.
	OnClose func()
}

// DialConn opens /ws at addr as the console does: its own Origin (unless hdr sets one), the token offered as a
// subprotocol beside "baton" (none when token is empty). The response is returned for a refusal's status.
func DialConn(ctx context.Context, addr, token string, hdr http.Header) (*websocket.Conn, *http.Response, error) {
	h := http.Header{}
	for k, v := range hdr {
		h[k] = v
	}
	if h.Get("Origin") == "" {
		h.Set("Origin", "http://"+addr)
	}
	opts := &websocket.DialOptions{HTTPHeader: h}
	if token != "" {
		opts.Subprotocols = []string{"baton", "baton.token." + token}
	}
	return websocket.Dial(ctx, "ws://"+addr+"/ws", opts)
}

// Client is one console connection.
type Client struct {
	conn   *websocket.Conn
	opts   Options
	mu     sync.Mutex
	nextID int
	calls  map[int]chan reply
}

type reply struct {
	Result json.RawMessage `json:"result"`
	Error  *console.Error  `json:"error"`
}

// message is anything the host sends: a call's reply (by id) or a push.
type message struct {
	ID       *int                    `json:"id"`
	Type     string                  `json:"type"`
	Event    *activity.Event         `json:"event"`
	Events   []activity.Event        `json:"events"`
	Terminal *console.TerminalOutput `json:"terminal"`
	reply
}

// Dial connects to the console at addr and starts reading.
func Dial(ctx context.Context, addr string, opts Options) (*Client, error) {
	conn, _, err := DialConn(ctx, addr, opts.Token, opts.Header)
	if err != nil {
		return nil, fmt.Errorf("connect to baton serve at %s: %w", addr, err)
	}
	limit := opts.ReadLimit
	if limit == 0 {
		limit = 16 << 20
	}
	conn.SetReadLimit(limit)
	c := &Client{conn: conn, opts: opts, calls: map[int]chan reply{}}
	go c.read()
	return c, nil
}

// Conn is the WebSocket itself, for a test that writes what no call would.
func (c *Client) Conn() *websocket.Conn { return c.conn }

// Close drops the connection at once.
func (c *Client) Close() { _ = c.conn.CloseNow() }

func (c *Client) read() {
	if c.opts.OnClose != nil {
		defer c.opts.OnClose()
	}
	for {
		_, data, err := c.conn.Read(context.Background())
		at := time.Now()
		if err != nil {
			return
		}
		var msg message
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		c.deliver(at, &msg)
	}
}

func (c *Client) deliver(at time.Time, msg *message) {
	switch msg.Type {
	case "event":
		if msg.Event != nil && c.opts.OnEvent != nil {
			c.opts.OnEvent(at, *msg.Event)
		}
		return
	case "events": // events that waited together on the host, in order (API.md)
		if c.opts.OnEvent != nil {
			for _, ev := range msg.Events {
				c.opts.OnEvent(at, ev)
			}
		}
		return
	case "terminal":
		if msg.Terminal != nil && c.opts.OnTerminal != nil {
			c.opts.OnTerminal(*msg.Terminal)
		}
		return
	}
	if msg.ID == nil {
		return
	}
	c.mu.Lock()
	ch := c.calls[*msg.ID]
	delete(c.calls, *msg.ID)
	c.mu.Unlock()
	if ch != nil {
		ch <- msg.reply
	}
}

// Call makes one console call and decodes its result into out (which may be nil). A console error comes back as
// a *console.Error wrapped with the method's name (errors.As finds it).
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan reply, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	data, err := json.Marshal(request{ID: id, Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if err := c.conn.Write(ctx, websocket.MessageText, data); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case rep := <-ch:
		if rep.Error != nil {
			return fmt.Errorf("%s: %w", method, rep.Error)
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(rep.Result, out); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: no answer: %w", method, ctx.Err())
	}
}

type request struct {
	ID     int    `json:"id"`
	Method string `json:"method"`
	Params any    `json:"params"`
}

// ConsoleError is the console's own error inside err, if it is one.
func ConsoleError(err error) (*console.Error, bool) {
	var ce *console.Error
	ok := errors.As(err, &ce)
	return ce, ok
}
