//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// acpDeltas: b.deltas text deltas, first → last as an ACP client reads them from `baton acp` (agent_message_chunk
// lines on its stdout), against the console's own path in the same run (a WebSocket client of `baton serve`,
// deltaRun), alternating, b.runs of each, medians. Goal (issue 31): ≤ 1.10×.
func (b *bench) acpDeltas() error {
	x, err := b.connect("acp-console", "0")
	if err != nil {
		return err
	}
	defer x.close()
	home, project, err := b.sandbox("acp")
	if err != nil {
		return err
	}
	a, err := b.startACP(home, project)
	if err != nil {
		return err
	}
	defer a.stop()
	var acpSpans, consoleSpans []time.Duration
	for i := 0; i < b.runs; i++ {
		span, err := a.deltaRun(project, b.deltas)
		if err != nil {
			return fmt.Errorf("baton acp: %w", err)
		}
		run, err := b.deltaRun(x.s, x.c, x.project, "[deltas]", b.deltas)
		if err != nil {
			return fmt.Errorf("console: %w", err)
		}
		acpSpans, consoleSpans = append(acpSpans, span), append(consoleSpans, run.tally.last.Sub(run.tally.first))
	}
	r := ratio(median(acpSpans), median(consoleSpans))
	fmt.Printf("%d deltas, first → last (median of %d): ACP client of baton acp %s, console WebSocket client %s → %.2f× (goal ≤ 1.10×: %s)\n",
		b.deltas, b.runs, ms(median(acpSpans)), ms(median(consoleSpans)), r, verdict(r <= 1.10))
	pairs := make([]float64, len(acpSpans))
	for i := range acpSpans {
		pairs[i] = ratio(acpSpans[i], consoleSpans[i])
	}
	fmt.Printf("  spread of the ACP run over the console run after it: %s\n", spread(pairs))
	return nil
}

// acpAgent is a `baton acp` process and a minimal client of it: one request at a time, lines read in order.
type acpAgent struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan acpLine
	nextID int
	once   sync.Once
}

// acpLine is one line as the client reads it, with the moment it did.
type acpLine struct {
	at  time.Time
	msg acpMessage
}

type acpMessage struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
	Params struct {
		Update struct {
			SessionUpdate string `json:"sessionUpdate"`
			Content       struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"update"`
	} `json:"params"`
}

type acpRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type acpInitialize struct {
	ProtocolVersion int `json:"protocolVersion"`
}

type acpNewSession struct {
	Cwd        string     `json:"cwd"`
	McpServers []struct{} `json:"mcpServers"`
}

type acpText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type acpPrompt struct {
	SessionID string    `json:"sessionId"`
	Prompt    []acpText `json:"prompt"`
}

type acpSessionRef struct {
	SessionID string `json:"sessionId"`
}

func (b *bench) startACP(home, project string) (*acpAgent, error) {
	cmd := exec.Command(b.baton, "acp")
	cmd.Dir = project
	cmd.Env = append(b.env(home), "BATON_SESSION_IDLE=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start baton acp: %w", err)
	}
	a := &acpAgent{cmd: cmd, in: in, lines: make(chan acpLine, 1024)}
	go a.read(out)
	ctx, cancel := deadline()
	defer cancel()
	if _, err := a.call(ctx, "initialize", acpInitialize{ProtocolVersion: 1}, nil); err != nil {
		a.stop()
		return nil, err
	}
	return a, nil
}

func (a *acpAgent) read(out io.Reader) {
	defer close(a.lines)
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			at := time.Now()
			var m acpMessage
			if json.Unmarshal(line, &m) == nil {
				a.lines <- acpLine{at: at, msg: m}
			}
		}
		if err != nil {
			return
		}
	}
}

// call sends a request and reads lines until its answer; onLine sees every other line on the way.
func (a *acpAgent) call(ctx context.Context, method string, params any, onLine func(acpLine)) (json.RawMessage, error) {
	a.nextID++
	id := a.nextID
	b, err := json.Marshal(acpRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	if _, err := a.in.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	for {
		select {
		case l, ok := <-a.lines:
			if !ok {
				return nil, errors.New("baton acp ended")
			}
			if l.msg.ID != nil && *l.msg.ID == id && l.msg.Method == "" {
				if l.msg.Error != nil {
					return nil, fmt.Errorf("%s: %s", method, l.msg.Error.Message)
				}
				return l.msg.Result, nil
			}
			if onLine != nil {
				onLine(l)
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// deltaRun opens a session, prompts the [deltas] reply and times its chunks, first → last.
func (a *acpAgent) deltaRun(project string, want int) (time.Duration, error) {
	ctx, cancel := deadline()
	defer cancel()
	raw, err := a.call(ctx, "session/new", acpNewSession{Cwd: project, McpServers: []struct{}{}}, nil)
	if err != nil {
		return 0, err
	}
	var ns acpSessionRef
	if err := json.Unmarshal(raw, &ns); err != nil {
		return 0, err
	}
	var first, last time.Time
	pieces := 0
	_, err = a.call(ctx, "session/prompt", acpPrompt{SessionID: ns.SessionID, Prompt: []acpText{{Type: "text", Text: "[deltas]"}}},
		func(l acpLine) {
			u := l.msg.Params.Update
			if l.msg.Method != "session/update" || u.SessionUpdate != "agent_message_chunk" {
				return
			}
			n := strings.Count(u.Content.Text, deltaPiece)
			if n == 0 {
				return
			}
			if first.IsZero() {
				first = l.at
			}
			last, pieces = l.at, pieces+n
		})
	if err != nil {
		return 0, err
	}
	if pieces != want {
		return 0, fmt.Errorf("the ACP client received %d of the %d streamed pieces", pieces, want)
	}
	if _, err := a.call(ctx, "session/close", acpSessionRef{SessionID: ns.SessionID}, nil); err != nil {
		return 0, err
	}
	return last.Sub(first), nil
}

// stop closes stdin (the agent closes its sessions and exits) and waits; the process group goes if it lingers.
func (a *acpAgent) stop() {
	a.once.Do(func() {
		_ = a.in.Close()
		done := make(chan struct{})
		go func() {
			for range a.lines {
			}
			_ = a.cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
}
