//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/consoleclient"
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

// client is one console client over the WebSocket (app/internal/consoleclient), each event timed as it is read.
type client struct {
	*consoleclient.Client
	events chan timed
}

func (s *served) dial() (*client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events := make(chan timed, 1<<17)
	c, err := consoleclient.Dial(ctx, s.addr, consoleclient.Options{
		Header:    http.Header{"Authorization": {"Bearer " + s.token}},
		ReadLimit: 64 << 20,
		OnEvent:   func(at time.Time, ev activity.Event) { events <- timed{at: at, ev: ev} },
		OnClose:   func() { close(events) },
	})
	if err != nil {
		return nil, err
	}
	return &client{Client: c, events: events}, nil
}

func (c *client) call(ctx context.Context, method string, params, out any) error {
	return c.Call(ctx, method, params, out)
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

func (c *client) close() { c.Close() }

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
