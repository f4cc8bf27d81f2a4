package sidecar_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// rawSidecar runs the real sidecar (test driver: no SDK, no network) with its stdio in the test's hands.
type rawSidecar struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *protocol.LineReader
}

func startRaw(t *testing.T) *rawSidecar {
	t.Helper()
	cmd := exec.Command(testenv.SidecarPath(t))
	cmd.Env = append(os.Environ(), "BATON_SIDECAR_TEST_DRIVER=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return &rawSidecar{cmd: cmd, in: bufio.NewWriterSize(stdin, 1<<20), out: protocol.NewLineReader(stdout, 0)}
}

func (r *rawSidecar) send(t *testing.T, line string) {
	t.Helper()
	_, err := r.in.WriteString(line + "\n")
	require.NoError(t, err)
	require.NoError(t, r.in.Flush())
}

// next reads lines until one matches pred (each read is bounded by the test's own deadline).
func (r *rawSidecar) next(t *testing.T, pred func(protocol.Envelope) bool) protocol.Envelope {
	t.Helper()
	found := make(chan protocol.Envelope, 1)
	go func() {
		for {
			line, err := r.out.Next()
			if err != nil {
				close(found)
				return
			}
			env, err := protocol.DecodeLine(line)
			if err == nil && pred(env) {
				found <- env
				return
			}
		}
	}()
	select {
	case env, ok := <-found:
		require.True(t, ok, "the sidecar's stdout ended")
		return env
	case <-time.After(20 * time.Second):
		t.Fatal("no matching line from the sidecar")
	}
	return protocol.Envelope{}
}

func reply(id string) func(protocol.Envelope) bool {
	return func(e protocol.Envelope) bool { return e.ID == id && (e.Type == "ok" || e.Type == "error") }
}

func TestSidecarRejectsWrongProtocolVersion(t *testing.T) {
	r := startRaw(t)
	r.send(t, `{"v":5,"id":"a","type":"list_sessions","payload":{}}`)
	env := r.next(t, reply("a"))
	require.Equal(t, "error", env.Type)
	require.Equal(t, protocol.CodeUnsupportedVersion, env.Error.Code)

	r.send(t, `{"id":"b","type":"list_sessions","payload":{}}`)
	env = r.next(t, reply("b"))
	require.Equal(t, protocol.CodeUnsupportedVersion, env.Error.Code)

	r.send(t, `{"v":4,"id":"c","type":"list_sessions","payload":{}}`)
	require.Equal(t, "ok", r.next(t, reply("c")).Type, "the sidecar keeps serving after a rejection")
}

func TestSidecarSurvivesA16MiBLine(t *testing.T) {
	r := startRaw(t)
	// With an id the sidecar can read, the dropped request is answered; without one, an event says so.
	huge := `{"v":4,"id":"big","type":"exec","payload":{"prompt":"` + strings.Repeat("x", 16<<20) + `"}}`
	r.send(t, huge)
	env := r.next(t, reply("big"))
	require.Equal(t, protocol.TypeError, env.Type)
	require.Equal(t, protocol.CodeLineTooLong, env.Error.Code)

	r.send(t, `{"type":"exec","payload":{"prompt":"`+strings.Repeat("x", 16<<20)+`"}}`)
	env = r.next(t, func(e protocol.Envelope) bool { return e.Type == protocol.TypeEvent })
	var ev activity.Event
	require.NoError(t, json.Unmarshal(env.Event, &ev))
	require.Equal(t, activity.ProtocolError, ev.Kind)
	require.Equal(t, protocol.CodeLineTooLong.String(), ev.Code)

	r.send(t, `{"v":4,"id":"after","type":"list_sessions","payload":{}}`)
	require.Equal(t, "ok", r.next(t, reply("after")).Type)
}

func TestTestDriverRoundTrip(t *testing.T) {
	c, err := sidecar.Start(context.Background(), sidecar.Config{
		Path: testenv.SidecarPath(t), Env: append(os.Environ(), "BATON_SIDECAR_TEST_DRIVER=1"), Logger: zerolog.Nop()})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id := "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	dir := t.TempDir()
	require.NoError(t, c.Call(ctx, protocol.ReqStart, protocol.StartRequest{Session: id, Cwd: dir}, nil))
	require.NoError(t, c.Call(ctx, protocol.ReqExec, protocol.ExecRequest{Session: id, Turn: "t1", Prompt: "ping"}, nil))
	var texts []string
	for ev := range c.Events() {
		if ev.Kind == activity.MessageCompleted {
			texts = append(texts, ev.Text)
		}
		if ev.Kind == activity.TurnCompleted {
			break
		}
	}
	require.Equal(t, []string{"Echo: ping"}, texts)
	require.NoError(t, c.Call(ctx, protocol.ReqClose, protocol.CloseRequest{Session: id}, nil))
	go func() {
		for range c.Events() {
		}
	}()
	require.NoError(t, c.Close(5*time.Second))

	err = c.Call(ctx, protocol.ReqListSessions, protocol.ListSessionsRequest{}, nil)
	require.ErrorIs(t, err, sidecar.ErrExited)
}
