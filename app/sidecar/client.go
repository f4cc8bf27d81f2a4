// Package sidecar starts and supervises one sidecar process and speaks the versioned NDJSON protocol with it:
// requests get exactly one reply, events are delivered in order, and a dying process fails every waiting call.
package sidecar

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/queue"
	"github.com/rs/zerolog"
)

// ErrExited is wrapped by every error caused by the sidecar process having ended.
var ErrExited = errors.New("the sidecar process ended")

// Config says how to start the sidecar.
type Config struct {
	Path   string   // the sidecar executable
	Args   []string // extra arguments
	Env    []string // the whole environment (nil: inherit Baton's)
	Dir    string
	Logger zerolog.Logger
	// MaxLineBytes bounds one line from the sidecar (protocol.MaxLineBytes when zero).
	MaxLineBytes int
	// Runtime is this sidecar's own runtime options (NAME=value), added as runtimeenv.go adds everyone's.
	Runtime []string
}

type reply struct {
	env protocol.Envelope
	err error
}

// Client is one running sidecar process.
type Client struct {
	cfg     Config
	cmd     *exec.Cmd // the sidecar, or on Linux the reaper above it (proctree_linux.go)
	tree    *procTree
	stdin   io.WriteCloser
	writeMu sync.Mutex
	nextID  atomic.Uint64

	mu      sync.Mutex
	pending map[string]chan reply
	exited  bool

	events  *queue.Unbounded[activity.Event]
	stderr  *stderrTail
	done    chan struct{}
	exitErr error
}

// Start launches the sidecar. The process is not tied to ctx: it lives until Close, or until it dies.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Path == "" {
		return nil, errors.New("no sidecar executable configured")
	}
	if _, err := os.Stat(cfg.Path); err != nil {
		return nil, fmt.Errorf("the sidecar executable %s is missing (reinstall Baton, or run scripts/build in a dev tree): %w", cfg.Path, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.Command(cfg.Path, cfg.Args...)
	cmd.Env = runtimeEnv(cfg.Env, cfg.Runtime...)
	cmd.Dir = cfg.Dir
	ownProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start the sidecar: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start the sidecar: %w", err)
	}
	c := &Client{
		cfg:     cfg,
		cmd:     cmd,
		stdin:   stdin,
		pending: map[string]chan reply{},
		events:  queue.New[activity.Event](),
		stderr:  newStderrTail(8 << 10),
		done:    make(chan struct{}),
	}
	cmd.Stderr = c.stderr
	if c.tree, err = startTree(cmd); err != nil {
		return nil, fmt.Errorf("start the sidecar %s: %w", cfg.Path, err)
	}
	cfg.Logger.Debug().Int("sidecarPid", c.tree.pid).Msg("sidecar started") // "pid" is the host's own
	go c.read(stdout)
	return c, nil
}

// PID is the sidecar's process id.
func (c *Client) PID() int { return c.tree.pid }

// Events delivers the sidecar's events in order; it is closed after the process ended and all were delivered.
func (c *Client) Events() <-chan activity.Event { return c.events.Out() }

// Done is closed when the process has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err says why the process ended (nil while it runs, or after a clean Close).
func (c *Client) Err() error {
	select {
	case <-c.done:
		return c.exitErr
	default:
		return nil
	}
}

// Call sends one request and decodes its ok payload into out (which may be nil). An error reply comes back as
// a *protocol.ErrorBody; a dead sidecar as an error wrapping ErrExited.
func (c *Client) Call(ctx context.Context, typ protocol.RequestType, payload, out any) error {
	id := strconv.FormatUint(c.nextID.Add(1), 10)
	line, err := protocol.EncodeRequest(id, typ, payload)
	if err != nil {
		return err
	}
	if len(line) > protocol.MaxLineBytes {
		return protocol.TooLargeError(typ, len(line)) // the sidecar would drop it, and the call wait in vain
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.exited {
		c.mu.Unlock()
		return c.exitedError()
	}
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()

	c.writeMu.Lock()
	_, err = c.stdin.Write(append(line, '\n'))
	c.writeMu.Unlock()
	if err != nil {
		// A failed write almost always means the process is ending; give the reaper a moment so the caller
		// learns why instead of a bare pipe error.
		select {
		case <-c.done:
			return c.exitedError()
		case <-time.After(2 * time.Second):
			return fmt.Errorf("send %s to the sidecar: %w", typ, err)
		}
	}

	select {
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		if r.env.Type == protocol.TypeError {
			if r.env.Error == nil {
				return &protocol.ErrorBody{Code: protocol.CodeInternal, Message: "the sidecar sent an error without details"}
			}
			return r.env.Error
		}
		if out != nil && len(r.env.Payload) > 0 {
			if err := decodePayload(r.env.Payload, out); err != nil {
				c.cfg.Logger.Warn().Err(err).Str("request", typ.String()).Msg("the sidecar's reply does not match the schema")
				return fmt.Errorf("the sidecar's reply to %s is malformed: %w", typ, err)
			}
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for the sidecar to answer %s: %w", typ, ctx.Err())
	}
}

// SendRaw writes one raw line; tests use it to prove how the sidecar treats bad input.
func (c *Client) SendRaw(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.stdin.Write(append(line, '\n'))
	return err
}

// Close ends the process: stdin is closed so the sidecar shuts its sessions down and exits; after grace it is
// killed. Sessions should be closed (request/ack) before this.
func (c *Client) Close(grace time.Duration) error {
	c.writeMu.Lock()
	_ = c.stdin.Close()
	c.writeMu.Unlock()
	select {
	case <-c.done:
	case <-time.After(grace):
		c.killSidecar()
		<-c.done
	}
	if errors.Is(c.exitErr, ErrExited) {
		return nil // an exit we asked for is not an error
	}
	return c.exitErr
}

// Kill ends the process at once.
func (c *Client) Kill() {
	c.killSidecar()
	<-c.done
}

// killSidecar kills the sidecar itself, never a reaper above it: the reaper is what ends the rest afterwards.
func (c *Client) killSidecar() {
	select {
	case <-c.done:
		return // reaped: its pid may be someone else's by now
	default:
	}
	if p, err := os.FindProcess(c.tree.pid); err == nil {
		_ = p.Kill()
	}
}

func (c *Client) exitedError() error {
	<-c.done
	return c.exitErr
}

func (c *Client) read(stdout io.Reader) {
	lr := protocol.NewLineReader(stdout, c.cfg.MaxLineBytes)
	for {
		line, err := lr.Next()
		if errors.Is(err, protocol.ErrLineTooLong) {
			c.cfg.Logger.Warn().Msg("the sidecar sent an oversized line; dropped")
			c.events.Push(hostProtocolError(protocol.CodeLineTooLong, err.Error()))
			continue
		}
		if err != nil {
			break
		}
		if len(line) == 0 {
			continue
		}
		c.handleLine(line)
	}
	waitErr := c.cmd.Wait()
	c.tree.ended()
	c.finish(waitErr)
}

// eventFrame is how the sidecar frames every event line (sidecar/src/protocol/codec.ts eventLine writes these keys
// in this order): such a line's event is read straight from its place, without decoding the envelope first.
var eventFrame = []byte(`{"v":` + strconv.Itoa(protocol.ProtocolVersion) + `,"type":"event","event":`)

func (c *Client) handleLine(line []byte) {
	// A stream is thousands of event lines: they skip the envelope decode. The event is still decoded strictly;
	// a line that does not decode this way takes the general path below, so the fast one never refuses a line the
	// general one accepts.
	if raw, ok := bytes.CutPrefix(bytes.TrimRight(line, " \t\r"), eventFrame); ok && len(raw) > 0 && raw[len(raw)-1] == '}' {
		if ev, err := activity.DecodeEvent(raw[:len(raw)-1]); err == nil {
			c.events.Push(ev)
			return
		}
	}
	if env, ok := framedOK(line); ok {
		c.resolve(env.ID, reply{env: env})
		return
	}
	env, err := protocol.DecodeLine(line)
	if err != nil {
		c.cfg.Logger.Warn().Err(err).Msg("the sidecar sent a line this host cannot read")
		if env.ID != "" {
			c.resolve(env.ID, reply{err: fmt.Errorf("the sidecar's reply is unreadable: %w", err)})
		}
		c.events.Push(hostProtocolError(protocol.CodeBadRequest, err.Error()))
		return
	}
	switch env.Type {
	case protocol.TypeEvent:
		ev, err := activity.DecodeEvent(env.Event)
		if err != nil {
			// Logged with its kind (never its content: it may hold prompts or file text).
			c.cfg.Logger.Warn().Err(err).Str("kind", eventKind(env.Event)).Msg("the sidecar sent an event this host refuses")
			c.events.Push(hostProtocolError(protocol.CodeBadRequest, "invalid event from the sidecar: "+err.Error()))
			return
		}
		c.events.Push(ev)
	case protocol.TypeOK, protocol.TypeError:
		c.resolve(env.ID, reply{env: env})
	default:
		c.events.Push(hostProtocolError(protocol.CodeBadRequest, fmt.Sprintf("the sidecar sent a line of type %q", env.Type)))
	}
}

func (c *Client) resolve(id string, r reply) {
	c.mu.Lock()
	ch, ok := c.pending[id]
	c.mu.Unlock()
	if !ok {
		c.cfg.Logger.Warn().Str("id", id).Msg("a sidecar reply matched no waiting request")
		return
	}
	deliver(ch, r)
}

// deliver never blocks: each waiting call reads at most one reply, and a late duplicate is dropped.
func deliver(ch chan reply, r reply) {
	select {
	case ch <- r:
	default:
	}
}

func (c *Client) finish(waitErr error) {
	reason := "exited"
	if waitErr != nil {
		reason = waitErr.Error()
		// The sidecar did not exit cleanly, so it may not have stopped its claude child.
		endProcessGroup(c.cmd.Process.Pid)
	}
	c.exitErr = fmt.Errorf("%w (%s; %s)", ErrExited, reason, c.stderr.classify())
	c.cfg.Logger.Debug().Int("sidecarPid", c.tree.pid).Str("reason", reason).Msg("sidecar ended")
	c.mu.Lock()
	c.exited = true
	waiting := c.pending
	c.pending = map[string]chan reply{}
	c.mu.Unlock()
	close(c.done)
	for _, ch := range waiting {
		deliver(ch, reply{err: c.exitErr})
	}
	c.events.Close()
}

func hostProtocolError(code protocol.ErrorCode, message string) activity.Event {
	return activity.Event{Kind: activity.ProtocolError, Time: time.Now().UTC(), Code: code.String(), Message: message}
}

// eventKind reads an event's kind for a log line, without trusting the rest of it.
func eventKind(raw []byte) string {
	var head struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(raw, &head)
	return head.Kind
}
