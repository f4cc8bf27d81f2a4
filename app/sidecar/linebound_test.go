package sidecar_test

import (
	"context"
	"errors"
	"os"
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

// A prompt of 1.4 MB of '<' fits the 8 MiB line (HTML escaping would make it 8.4 MB); one past the bound is
// refused before it is sent, with its size, instead of being dropped by the sidecar while the call waits.
func TestAPromptIsSentUnescapedAndRefusedAtOnceOverTheBound(t *testing.T) {
	c, err := sidecar.Start(context.Background(), sidecar.Config{
		Path: testenv.SidecarPath(t), Env: append(os.Environ(), "BATON_SIDECAR_TEST_DRIVER=1"), Logger: zerolog.Nop()})
	require.NoError(t, err)
	defer func() {
		go func() {
			for range c.Events() {
			}
		}()
		_ = c.Close(5 * time.Second)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id := "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	require.NoError(t, c.Call(ctx, protocol.ReqStart, protocol.StartRequest{Session: id, Cwd: t.TempDir()}, nil))

	angles := strings.Repeat("<", 1_400_000)
	require.NoError(t, c.Call(ctx, protocol.ReqExec, protocol.ExecRequest{Session: id, Turn: "t1", Prompt: angles}, nil))
	for ev := range c.Events() {
		if ev.Kind == activity.MessageCompleted {
			require.Equal(t, "Echo: "+angles, ev.Text, "the prompt arrived whole")
		}
		if ev.Kind == activity.TurnCompleted {
			break
		}
	}

	err = c.Call(ctx, protocol.ReqExec, protocol.ExecRequest{Session: id, Turn: "t2", Prompt: strings.Repeat("x", 9<<20)}, nil)
	var body *protocol.ErrorBody
	require.True(t, errors.As(err, &body), "refused by the host, not waited out: %v", err)
	require.Equal(t, protocol.CodeBadRequest, body.Code)
	require.Contains(t, body.Message, "prompt too large (9.0 MB of 8 MB)")
	require.NoError(t, ctx.Err())
}

// The host's logger carries its own pid on every line; the sidecar's is logged under another key, so no line
// holds "pid" twice (a JSON object with a duplicate key reads differently in every tool).
func TestTheSidecarsPidIsNotASecondPidField(t *testing.T) {
	var buf testenv.LockedBuffer
	log := zerolog.New(&buf).Level(zerolog.DebugLevel).With().Int("pid", os.Getpid()).Logger()
	c, err := sidecar.Start(context.Background(), sidecar.Config{
		Path: testenv.SidecarPath(t), Env: append(os.Environ(), "BATON_SIDECAR_TEST_DRIVER=1"), Logger: log})
	require.NoError(t, err)
	go func() {
		for range c.Events() {
		}
	}()
	require.NoError(t, c.Close(5*time.Second))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.NotEmpty(t, lines)
	for _, line := range lines {
		require.Equal(t, 1, strings.Count(line, `"pid":`), "one pid per line: %s", line)
	}
	require.Contains(t, buf.String(), `"sidecarPid":`)
}
