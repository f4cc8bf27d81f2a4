//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/coder/websocket"
)

// served is a `baton serve` process: the real host, as the console's browser mode runs it.
type served struct {
	cmd   *exec.Cmd
	addr  string
	token string
}

func (b *bench) serve(home string, idle string, extraEnv ...string) (*served, error) {
	cmd := exec.Command(b.baton, "serve", "--listen", "127.0.0.1:0")
	cmd.Dir = home
	cmd.Env = append(append(b.env(home), "BATON_SESSION_IDLE="+idle), extraEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start baton serve: %w", err)
	}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		for sc.Scan() {
		}
	}()
	s := &served{cmd: cmd}
	select {
	case first, ok := <-line:
		u, err := url.Parse(first)
		var frag url.Values
		if err == nil {
			frag, err = url.ParseQuery(u.Fragment) // the token rides in the fragment: #token=…
		}
		if !ok || err != nil || frag.Get("token") == "" {
			s.stop()
			return nil, fmt.Errorf("baton serve printed %q, not its URL", first)
		}
		s.addr, s.token = u.Host, frag.Get("token")
	case <-time.After(60 * time.Second):
		s.stop()
		return nil, errors.New("baton serve printed no URL within 60 s")
	}
	return s, nil
}

func (s *served) pid() int { return s.cmd.Process.Pid }

// stop ends the host (which closes its sessions) and waits for it; the process group goes if it lingers.
func (s *served) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// connected is a sandbox served by its own `baton serve`, with one console client on it.
type connected struct {
	home, project string
	s             *served
	c             *client
}

// connect sandboxes name, serves it with idle as BATON_SESSION_IDLE and dials one client; close ends both.
func (b *bench) connect(name, idle string) (*connected, error) {
	return b.connectWith(name, idle, nil)
}

// connectWith is connect with extraEnv added to the host's environment (and so its sidecars').
func (b *bench) connectWith(name, idle string, extraEnv []string) (*connected, error) {
	home, project, err := b.sandbox(name)
	if err != nil {
		return nil, err
	}
	s, err := b.serve(home, idle, extraEnv...)
	if err != nil {
		return nil, err
	}
	c, err := s.dial()
	if err != nil {
		s.stop()
		return nil, err
	}
	return &connected{home: home, project: project, s: s, c: c}, nil
}

func (x *connected) close() {
	x.c.close()
	x.s.stop()
}

// timed is an event with the moment the client read it.
type timed struct {
	at time.Time
	ev activity.Event
}

// client is one console client over the WebSocket.
type client struct {
	conn   *websocket.Conn
	mu     sync.Mutex
	nextID int
	calls  map[int]chan json.RawMessage
	events chan timed
}

func (s *served) dial() (*client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hdr := http.Header{}
	hdr.Set("Origin", "http://"+s.addr)
	hdr.Set("Authorization", "Bearer "+s.token)
	conn, _, err := websocket.Dial(ctx, "ws://"+s.addr+"/ws", &websocket.DialOptions{HTTPHeader: hdr})
	if err != nil {
		return nil, fmt.Errorf("connect to baton serve: %w", err)
	}
	conn.SetReadLimit(64 << 20)
	c := &client{conn: conn, calls: map[int]chan json.RawMessage{}, events: make(chan timed, 1<<17)}
	go c.read()
	return c, nil
}

func (c *client) read() {
	defer close(c.events)
	for {
		_, data, err := c.conn.Read(context.Background())
		at := time.Now()
		if err != nil {
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
			c.events <- timed{at: at, ev: msg.Event}
			continue
		case "events": // several that waited together on the host (API.md)
			for _, ev := range msg.Events {
				c.events <- timed{at: at, ev: ev}
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

func (c *client) call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan json.RawMessage, 1)
	c.calls[id] = ch
	c.mu.Unlock()
	data, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if err := c.conn.Write(ctx, websocket.MessageText, data); err != nil {
		return err
	}
	select {
	case raw := <-ch:
		var rep struct {
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(raw, &rep); err != nil {
			return err
		}
		if rep.Error != nil {
			return fmt.Errorf("%s: %s", method, rep.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(rep.Result, out)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: no answer: %w", method, ctx.Err())
	}
}

// until reads events until pred accepts one, and returns it.
func (c *client) until(ctx context.Context, pred func(activity.Event) bool) (timed, error) {
	for {
		select {
		case t, ok := <-c.events:
			if !ok {
				return timed{}, errors.New("the connection closed")
			}
			if pred(t.ev) {
				return t, nil
			}
		case <-ctx.Done():
			return timed{}, fmt.Errorf("waiting for an event: %w", ctx.Err())
		}
	}
}

func (c *client) close() { _ = c.conn.CloseNow() }

// startSession opens a session in project and returns its id.
func (c *client) startSession(ctx context.Context, project string) (string, error) {
	var ref struct {
		Session string `json:"session"`
	}
	err := c.call(ctx, "startSession", map[string]any{"cwd": project, "permissionMode": "default"}, &ref)
	return ref.Session, err
}

// prompt sends a prompt and returns its turn.
func (c *client) prompt(ctx context.Context, session, text string) (string, error) {
	var res struct {
		Turn string `json:"turn"`
	}
	err := c.call(ctx, "sendPrompt", map[string]any{"session": session, "prompt": text}, &res)
	return res.Turn, err
}

// turnEnd waits for the turn's terminal event; a turn that did not complete is an error.
func (c *client) turnEnd(ctx context.Context, turn string) error {
	t, err := c.until(ctx, func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
	if err != nil {
		return err
	}
	if t.ev.Kind != activity.TurnCompleted {
		return fmt.Errorf("the turn ended %s: %s", t.ev.Kind, strings.TrimSpace(t.ev.Message))
	}
	return nil
}
