//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"syscall"
	"time"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/consoleclient"
)

func isEIO(err error) bool { return errors.Is(err, syscall.EIO) }

// served is a `baton serve` process.
type served struct {
	cmd         *exec.Cmd
	addr, token string
}

func serve(baton, home string, env []string) (*served, error) {
	cmd := exec.Command(baton, "serve", "--listen", "127.0.0.1:0")
	cmd.Dir, cmd.Env = home, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start baton serve: %w", err)
	}
	sc := bufio.NewScanner(out)
	s := &served{cmd: cmd}
	if !sc.Scan() {
		s.stop()
		return nil, errors.New("baton serve printed no URL")
	}
	u, err := url.Parse(sc.Text())
	if err != nil {
		s.stop()
		return nil, err
	}
	frag, _ := url.ParseQuery(u.Fragment)
	s.addr, s.token = u.Host, frag.Get("token")
	go func() {
		for sc.Scan() {
		}
	}()
	return s, nil
}

func (s *served) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// client speaks the console API over the WebSocket as the page does (app/internal/consoleclient), and hands
// each terminal push to a watcher.
type client struct {
	*consoleclient.Client
	output chan console.TerminalOutput
	next   map[string]int // the offset each terminal's next push should start at
	gaps   int            // pushes that skipped output the host dropped for a client that fell behind
}

func dial(s *served) (*client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	output := make(chan console.TerminalOutput, 1<<16)
	c, err := consoleclient.Dial(ctx, s.addr, consoleclient.Options{
		Token:      s.token,
		ReadLimit:  64 << 20,
		OnTerminal: func(o console.TerminalOutput) { output <- o },
		OnClose:    func() { close(output) },
	})
	if err != nil {
		return nil, err
	}
	return &client{Client: c, output: output, next: map[string]int{}}, nil
}

func (c *client) close() { c.Close() }

func (c *client) call(method string, params, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	return c.Call(ctx, method, params, out)
}

func (c *client) openTerminal(project string) (string, error) {
	var ref console.SessionRef
	if err := c.call("startSession", map[string]any{"cwd": project}, &ref); err != nil {
		return "", err
	}
	var info console.TerminalInfo
	if err := c.call("terminalOpen", console.TerminalOpenParams{Session: ref.Session, Cols: 120, Rows: 40}, &info); err != nil {
		return "", err
	}
	if _, err := c.until(info.Terminal, []byte("$ ")); err != nil {
		return "", err
	}
	return info.Terminal, nil
}

// until reads the terminal's output until it holds marker; it returns the bytes that reached the client.
func (c *client) until(term string, marker []byte) (int, error) {
	var tail []byte
	total := 0
	timeout := time.After(5 * time.Minute)
	for {
		select {
		case o, ok := <-c.output:
			if !ok {
				return total, errors.New("the connection closed")
			}
			if o.Terminal != term {
				continue
			}
			data, err := base64.StdEncoding.DecodeString(o.Data)
			if err != nil {
				return total, err
			}
			if n, seen := c.next[term]; seen && o.Offset != n {
				c.gaps++
			}
			c.next[term] = o.Offset + len(data)
			total += len(data)
			tail = append(tail, data...)
			if bytes.Contains(tail, marker) {
				return total, nil
			}
			if len(tail) > len(marker) {
				tail = append(tail[:0], tail[len(tail)-len(marker):]...)
			}
		case <-timeout:
			return total, fmt.Errorf("never saw %q", marker)
		}
	}
}

// echoLatencies types one key at a time and times each until its echo arrives.
func (c *client) echoLatencies(term string, keys int) ([]time.Duration, error) {
	out := make([]time.Duration, 0, keys)
	for i := range keys {
		key := string(rune('a' + i%26))
		start := time.Now()
		if err := c.call("terminalInput", console.TerminalInputParams{Terminal: term, Data: key}, nil); err != nil {
			return nil, err
		}
		if _, err := c.until(term, []byte(key)); err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	// Ctrl+U drops the typed line.
	return out, c.call("terminalInput", console.TerminalInputParams{Terminal: term, Data: "\x15"}, nil)
}

// burst runs command in the terminal and times it until its end marker reaches the client.
func (c *client) burst(term, command string) (time.Duration, int, error) {
	start := time.Now()
	if err := c.call("terminalInput", console.TerminalInputParams{Terminal: term, Data: command + "; printf 'END%s\\n' _OK\r"}, nil); err != nil {
		return 0, 0, err
	}
	got, err := c.until(term, []byte("END_OK"))
	return time.Since(start), got, err
}
