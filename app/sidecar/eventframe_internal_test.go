package sidecar

import (
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/queue"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// Event lines framed the way the sidecar writes them, and lines framed any other valid way, deliver the same
// events; a bad event is a protocol error either way.
func TestEventLinesDecodeAlikeWhateverTheirFraming(t *testing.T) {
	c := &Client{cfg: Config{Logger: zerolog.Nop()}, pending: map[string]chan reply{}, events: queue.New[activity.Event]()}
	delta := `{"kind":"message.delta","session":"s","turn":"t","time":"2026-12-01T08:00:00.000Z","ephemeral":true,"messageId":"m","index":0,"block":"text","text":"hi"}`
	for _, line := range []string{
		`{"v":4,"type":"event","event":` + delta + `}`,       // as the sidecar frames it
		`{"v":4,"type":"event","event":` + delta + `}  `,     // trailing space
		`{"type":"event","v":4,"event":` + delta + `}`,       // another key order
		`{"v":4,"type":"event","event":` + delta + `,"x":1}`, // an envelope field this host ignores
	} {
		c.handleLine([]byte(line))
		ev := <-c.events.Out()
		require.Equal(t, activity.MessageDelta, ev.Kind, line)
		require.Equal(t, "hi", ev.Text, line)
	}
	for _, line := range []string{
		`{"v":4,"type":"event","event":{"kind":"message.delta","session":"s"}}`,             // fields missing
		`{"v":4,"type":"event","event":` + delta[:len(delta)-1] + `,"extra":true}}`,         // an unknown field
		`{"v":4,"type":"event","event":{"kind":"message.delta","session":"s"},"event":"x"}`, // two events
	} {
		c.handleLine([]byte(line))
		ev := <-c.events.Out()
		require.Equal(t, activity.ProtocolError, ev.Kind, line)
	}
}
