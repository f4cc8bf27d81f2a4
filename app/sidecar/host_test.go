package sidecar_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// A misbehaving sidecar cannot be produced from the real one, so these host-side checks run a shell script in
// its place: it prints a wrong-version line, a 16 MiB line, then a valid event, then waits for one request and dies.
const misbehaving = `#!/bin/sh
printf '%s\n' '{"v":5,"type":"event","event":{"kind":"unknown","session":"s","time":"2026-01-01T00:00:00Z","raw":{}}}'
head -c 16777216 /dev/zero | tr '\0' 'x'; printf '\n'
printf '%s\n' '{"v":4,"type":"event","event":{"kind":"unknown","session":"s","time":"2026-01-01T00:00:00Z","raw":{"ok":true}}}'
read line
exit 3
`

func TestHostDropsBadLinesAndFailsCallsWhenTheSidecarDies(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	script := filepath.Join(t.TempDir(), "sidecar.sh")
	require.NoError(t, os.WriteFile(script, []byte(misbehaving), 0o755))
	c, err := sidecar.Start(context.Background(), sidecar.Config{Path: script, Logger: zerolog.Nop()})
	require.NoError(t, err)

	var got []activity.Event
	for len(got) < 3 {
		select {
		case ev := <-c.Events():
			got = append(got, ev)
		case <-time.After(20 * time.Second):
			t.Fatalf("expected 3 events, got %+v", got)
		}
	}
	require.Equal(t, activity.ProtocolError, got[0].Kind)
	require.Contains(t, got[0].Message, "version 5")
	require.Equal(t, activity.ProtocolError, got[1].Kind)
	require.Equal(t, protocol.CodeLineTooLong.String(), got[1].Code)
	require.Equal(t, activity.Unknown, got[2].Kind, "a valid line after the oversized one still arrives")
	require.JSONEq(t, `{"ok":true}`, string(got[2].Raw))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = c.Call(ctx, protocol.ReqListSessions, protocol.ListSessionsRequest{}, nil)
	require.ErrorIs(t, err, sidecar.ErrExited, "a call the dead sidecar never answered fails at once, not at the deadline")
	require.Contains(t, err.Error(), "exit status 3")
	<-c.Done()
	for range c.Events() {
	}
}
