package activity

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

const plainDelta = `{"kind":"message.delta","session":"s-1","turn":"t-1","time":"2026-12-01T08:00:00.123456Z","ephemeral":true,"messageId":"m","index":3,"block":"text","text":"word word "}`

// The delta fast path reads what the standard decoder reads, and leaves to it whatever it does not read plainly:
// escapes, control bytes, invalid UTF-8, nulls, other number shapes, other types.
func TestDeltaFastPathAgreesWithTheStandardDecoder(t *testing.T) {
	ev, ok := decodeDelta([]byte(plainDelta))
	require.True(t, ok)
	var want Event
	require.NoError(t, json.Unmarshal([]byte(plainDelta), &want))
	require.Equal(t, want, ev)

	for _, text := range []string{`"a\"b"`, `"a\\u00e9"`, `"tab\there"`, "\"bad \xff utf8\"", `null`, `1`, `"ok"`} {
		line := `{"kind":"message.delta","session":"s","time":"2026-12-01T08:00:00Z","ephemeral":true,"messageId":"m","index":0,"block":"text","text":` + text + `}`
		requireAgrees(t, line)
	}
	for _, index := range []string{`0`, `-0`, `01`, `1.0`, `1e2`, `-`, `99999999999999999999`, `"1"`, `null`, `-7`} {
		requireAgrees(t, `{"kind":"message.delta","session":"s","time":"2026-12-01T08:00:00Z","ephemeral":true,"messageId":"m","index":`+index+`,"block":"text","text":"x"}`)
	}
	for _, eph := range []string{`true`, `false`, `null`, `1`, `"true"`} {
		requireAgrees(t, `{"kind":"message.delta","session":"s","time":"2026-12-01T08:00:00Z","ephemeral":`+eph+`,"messageId":"m","index":0,"block":"text","text":"x"}`)
	}
	for _, stamp := range []string{`"2026-12-01T08:00:00Z"`, `"2026-12-01 08:00:00Z"`, `"yesterday"`, `null`, `5`} {
		requireAgrees(t, `{"kind":"message.delta","session":"s","time":`+stamp+`,"ephemeral":true,"messageId":"m","index":0,"block":"text","text":"x"}`)
	}
}

// requireAgrees: when the fast path reads line, the standard decoder reads the same event from it.
func requireAgrees(t *testing.T, line string) {
	t.Helper()
	ev, ok := decodeDelta([]byte(line))
	if !ok {
		return
	}
	var want Event
	require.NoError(t, json.Unmarshal([]byte(line), &want), line)
	require.Equal(t, want, ev, line)
}

// Whatever the fast path accepts, DecodeEvent's general path (the standard decoder) reads the same way.
func FuzzDeltaFastPathAgrees(f *testing.F) {
	f.Add([]byte(plainDelta))
	f.Add([]byte(`{"kind":"message.delta","kind":"message.delta","text":"a","text":"b"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		// DecodeEvent calls the fast path only on a message.delta whose keys its schema names.
		keys, kind, err := topLevel(in, nil)
		if err != nil || string(kind) != `"message.delta"` {
			return
		}
		for _, k := range keys {
			if _, known := kindSpecs[MessageDelta].fields[string(k)]; !known {
				return
			}
		}
		requireAgrees(t, string(in))
	})
}
