package activity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The key scan reads keys and the kind through strings holding quotes, braces and escapes, and nested values.
func TestTopLevelReadsKeysThroughTrickyValues(t *testing.T) {
	in := ` { "kind" : "tool.started", "input":{"a":"}\"{","b":[1,{"c":"]"}]} ,"name":"x\\","ok":true,"n":-1.5e3,"z":null }`
	keys, kind, err := topLevel([]byte(in), nil)
	require.NoError(t, err)
	var names []string
	for _, k := range keys {
		names = append(names, string(k))
	}
	require.Equal(t, []string{"kind", "input", "name", "ok", "n", "z"}, names)
	require.Equal(t, `"tool.started"`, string(kind))

	for _, bad := range []string{``, `[]`, `"kind"`, `{"kind"}`, `{"kind":}`, `{"kind":"a"`, `{"a":{"b":1}`, `{"a":"x}`, `{"a":1 "b":2}`, `{,}`, `{"a":1}x`, `{} {}`} {
		_, _, err := topLevel([]byte(bad), nil)
		require.ErrorIs(t, err, errNotObject, bad)
	}
}

// Only kinds carrying structured values pay for the strict decoder (turn.started: its images); a stream piece does not.
func TestNestedKindsAreTheOnesWithStructuredFields(t *testing.T) {
	for _, k := range []Kind{ToolStarted, ToolCompleted, TurnStarted, PlanUpdated, SessionUpdated, PermissionSettled, TasksUpdated, GoalUpdated, CommandsUpdated, ModelsUpdated} {
		require.True(t, nestedKinds[k], k)
	}
	for _, k := range []Kind{MessageDelta, MessageCompleted, UsageUpdated, PermissionRequested, Unknown} {
		require.False(t, nestedKinds[k], k)
	}
}

// Whatever the scan makes of arbitrary bytes, an event DecodeEvent accepts has exactly its kind's keys: every
// one known, every required one present (read back by the standard decoder, not by the scan).
func FuzzDecodeEventIsStrict(f *testing.F) {
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "sidecar", "testdata", "protocol", "valid.ndjson"))
	require.NoError(f, err)
	for _, line := range strings.Split(string(data), "\n") {
		var env struct {
			Event json.RawMessage `json:"event"`
		}
		if json.Unmarshal([]byte(line), &env) == nil && len(env.Event) > 0 {
			f.Add([]byte(env.Event))
		}
	}
	f.Add([]byte(`{"kind":"message.delta","kind":"x"}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		ev, err := DecodeEvent(in)
		if err != nil {
			return
		}
		var fields map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(in, &fields))
		spec := kindSpecs[ev.Kind]
		for name := range fields {
			_, known := spec.fields[name]
			require.True(t, known, "accepted an unknown field %q in %s", name, in)
		}
		for name, required := range spec.fields {
			if _, present := fields[name]; required {
				require.True(t, present, "accepted %s without %q", in, name)
			}
		}
	})
}

// The decode every stream piece pays on the host (`go test -bench DecodeEvent ./app/activity`).
func BenchmarkDecodeEventDelta(b *testing.B) {
	line := []byte(`{"kind":"message.delta","session":"0b9d2c4e-6f1a-4c3b-9d8e-7a6b5c4d3e2f","turn":"t-12","time":"2026-12-01T08:00:00.123Z","ephemeral":true,"messageId":"msg_01ABC","index":0,"block":"text","text":"word word word "}`)
	for b.Loop() {
		if _, err := DecodeEvent(line); err != nil {
			b.Fatal(err)
		}
	}
}
