package sidecar_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/google/uuid"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// Close is request/ack: by the time the sidecar answers ok, the SDK query — and its claude process — is gone,
// while the sidecar itself still runs until the host closes its stdin.
func TestCloseAcknowledgesOnlyAfterTheQueryShutDown(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("process checks read /proc")
	}
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	defer api.Close()
	home := testenv.NewHome(t)
	env := append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude)
	c, err := sidecar.Start(context.Background(), sidecar.Config{Path: testenv.SidecarPath(t), Env: env, Logger: zerolog.Nop()})
	require.NoError(t, err)
	defer c.Kill()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id := uuid.NewString()
	require.NoError(t, c.Call(ctx, protocol.ReqStart, protocol.StartRequest{Session: id, Cwd: testenv.NewProject(t)}, nil))
	require.NoError(t, c.Call(ctx, protocol.ReqExec, protocol.ExecRequest{Session: id, Turn: "t1", Prompt: "hi"}, nil))
	var closed bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range c.Events() {
			if ev.Kind == activity.SessionClosed {
				closed = true
			}
		}
	}()
	deadline := time.Now().Add(60 * time.Second)
	var claudes []int
	for len(claudes) == 0 && time.Now().Before(deadline) {
		claudes = testenv.ChildPIDs(c.PID())
		time.Sleep(50 * time.Millisecond)
	}
	require.NotEmpty(t, claudes, "the session runs a claude child")

	require.NoError(t, c.Call(ctx, protocol.ReqClose, protocol.CloseRequest{Session: id}, nil))
	require.Empty(t, testenv.ChildPIDs(c.PID()), "close was acknowledged while the claude child still ran")
	select {
	case <-c.Done():
		t.Fatal("the sidecar exited before the host closed its stdin")
	default:
	}
	require.NoError(t, c.Close(5*time.Second))
	<-done
	require.True(t, closed, "session.closed came before the process ended")
}
