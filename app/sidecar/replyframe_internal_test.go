package sidecar

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/queue"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// An ok reply framed the way the sidecar writes it is read from its place; every line it takes reads as the general
// decoder reads it, and a line that decoder refuses (or reads another way) is not taken.
func TestOKRepliesReadAlikeWhateverTheirFraming(t *testing.T) {
	page := `{"items":[{"uuid":"u1","event":{"kind":"turn.started","prompt":"a \"quoted\" <word>"}},{"event":{"kind":"x"}}],"done":false,"bytesRead":12}`
	for _, line := range []string{
		`{"v":4,"id":"17","type":"ok","payload":` + page + `}`,
		`{"v":4,"id":"17","type":"ok","payload":null}`,
		`{"v":4,"id":"17","type":"ok","payload":{}}`,
	} {
		framed, ok := framedOK([]byte(line))
		require.True(t, ok, line)
		general, err := protocol.DecodeLine([]byte(line))
		require.NoError(t, err, line)
		require.Equal(t, general, framed, line)
	}
	for _, line := range []string{
		`{"v":4,"id":"17","type":"ok","payload":{"items":[}`,             // not JSON
		`{"v":4,"id":"17","type":"ok","payload":{},"x":{}}`,              // a second field after the payload
		`{"v":4,"id":"17","type":"ok","payload":{}} `,                    // trailing space: the general path's
		`{"v":4,"id":"1\u0037","type":"ok","payload":{}}`,                // an escaped id
		`{"v":4,"id":"17","type":"error","payload":{}}`,                  // not an ok
		`{"v":3,"id":"17","type":"ok","payload":{}}`,                     // another version
		`{"v":4,"id":"17","type":"ok","payload":{"a":"` + "\x01" + `"}}`, // a control character in a string
	} {
		_, ok := framedOK([]byte(line))
		require.False(t, ok, line)
	}
}

// A framed reply reaches its call, and a reply payload is decoded as strictly as encoding/json's Decoder with
// DisallowUnknownFields: the same values, and the same refusals.
func TestReplyPayloadsDecodeStrictly(t *testing.T) {
	c := &Client{cfg: Config{Logger: zerolog.Nop()}, pending: map[string]chan reply{}, events: queue.New[activity.Event]()}
	ch := make(chan reply, 1)
	c.pending["17"] = ch
	c.handleLine([]byte(`{"v":4,"id":"17","type":"ok","payload":{"items":[{"uuid":"u1","event":{"kind":"x"}}],"done":true,"bytesRead":3,"resume":{"offset":3,"state":{"a":[1]},"items":1}}}`))
	r := <-ch
	require.NoError(t, r.err)
	var got protocol.TranscriptNextReply
	require.NoError(t, decodePayload(r.env.Payload, &got))
	require.Equal(t, protocol.TranscriptNextReply{Items: []protocol.TranscriptItem{{UUID: "u1", Event: json.RawMessage(`{"kind":"x"}`)}},
		Done: true, BytesRead: 3, Resume: &protocol.TranscriptResume{Offset: 3, State: json.RawMessage(`{"a":[1]}`), Items: 1}}, got)

	for _, payload := range []string{
		`{"items":[],"done":true,"surprise":1}`,     // an unknown field
		`{"items":[{"uuid":"u","event":{},"x":1}]}`, // an unknown field of an item
		`{"done":"yes"}`,    // a field of another type
		`{"bytesRead":1.5}`, // not an int
		`[]`,                // not an object
	} {
		var std, fast protocol.TranscriptNextReply
		dec := json.NewDecoder(bytes.NewReader([]byte(payload)))
		dec.DisallowUnknownFields()
		require.Error(t, dec.Decode(&std), payload)
		require.Error(t, decodePayload([]byte(payload), &fast), payload)
	}
	// A payload is one value (the general path hands over exactly one); anything after it is refused.
	require.Error(t, decodePayload([]byte(`{"done":true} {"done":false}`), new(protocol.TranscriptNextReply)))
}
