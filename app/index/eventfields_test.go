package index

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fieldsSeeds are events of each stored kind and the shapes scanFields leaves to json.Unmarshal.
var fieldsSeeds = []string{
	`{"kind":"turn.started","session":"s","time":"2026-01-02T03:04:05.678Z","turn":"t1","prompt":"fix \"it\"\nnow\t\\ \/ \u00e9 \u20ac"}`,
	`{"kind":"message.completed","role":"assistant","text":"héllo wörld ✓","parentToolUseId":"toolu_1","blocks":[{"a":[1,2,{"b":"]}"}]}]}`,
	`{"kind":"tool.started","name":"Bash","input":{"command":"ls -la","nested":{"x":["a","b\"c"]}},"time":"2026-01-02T03:04:05Z"}`,
	`{"kind":"tool.completed","output":"line1\nline2\r\n\u001b[31mred\u001b[0m","ok":true,"n":-1.5e3}`,
	`{"kind":"tool.failed","error":"boom","input":null}`,
	`{"kind":"usage.recorded","time":"2026-01-02T03:04:05.678Z","turn":"t","messageId":"msg_1","model":"claude","inputTokens":12,"outputTokens":340,"cacheReadTokens":0,"cacheCreationTokens":99999999999}`,
	`{"kind":"turn.completed","time":"2026-01-02T03:04:05.678Z","costUsd":0.0123,"durationMs":5}`,
	`{"kind":"turn.completed","costUsd":null}`,
	`{"kind":"message.delta","ephemeral":true,"text":"x"}`,
	`{"kind":"message.delta","ephemeral":false,"text":"x"}`,
	` { "kind" : "compact.summary" , "text" : "a" } `,
	`{}`,
	`{"kind":"x","text":"a","text":"b"}`,
	`{"Kind":"turn.started","prompt":"case"}`,
	`{"kind":"turn.started","PROMPT":"case"}`,
	`{"kind":"message.completed","text":"\ud83d\ude00 pair"}`,
	`{"kind":"message.completed","text":"\ud83d lone"}`,
	`{"kind":"message.completed","text":"bad ` + "\xff" + ` byte"}`,
	`{"kind":"message.completed","text":"bad \n` + "\xff" + ` escaped"}`,
	`{"kind":"message.completed","text":5}`,
	`{"kind":"usage.recorded","inputTokens":1.5}`,
	`{"kind":"usage.recorded","inputTokens":"1"}`,
	`{"kind":"message.completed","ephemeral":"yes"}`,
	`{"k\u0069nd":"turn.started"}`,
	`{"kind":"turn.started","prompt":null}`,
	`[1,2]`,
	`"text"`,
	`{"kind":"command.output","text":"a"} {"x":1}`,
}

// fieldsOfUnmarshal is what fieldsOf answered before scanFields: json.Unmarshal of the whole event.
func fieldsOfUnmarshal(event []byte) (eventFields, bool) {
	var e eventFields
	if json.Unmarshal(event, &e) != nil || e.Ephemeral {
		return eventFields{}, false
	}
	return e, true
}

func checkFields(t *testing.T, event []byte) {
	t.Helper()
	got, gotOK := fieldsOf(event)
	want, wantOK := fieldsOfUnmarshal(event)
	if gotOK != wantOK || !reflect.DeepEqual(normalInput(got), normalInput(want)) {
		t.Fatalf("fieldsOf(%q) = %+v, %v; json.Unmarshal gives %+v, %v", event, got, gotOK, want, wantOK)
	}
}

// normalInput compares Input by its bytes (Unmarshal copies them, scanFields points into the event).
func normalInput(e eventFields) eventFields {
	if len(e.Input) == 0 {
		e.Input = nil
	}
	return e
}

func TestFieldsOfIsUnmarshals(t *testing.T) {
	for _, s := range fieldsSeeds {
		checkFields(t, []byte(s))
	}
}

// FuzzFieldsOf checks scanFields against json.Unmarshal over valid JSON (what the index is handed: the events
// of a reply already decoded as JSON).
func FuzzFieldsOf(f *testing.F) {
	for _, s := range fieldsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, event []byte) {
		if !json.Valid(event) {
			t.Skip()
		}
		checkFields(t, event)
	})
}

func BenchmarkFieldsOf(b *testing.B) {
	events := make([][]byte, len(fieldsSeeds))
	for i, s := range fieldsSeeds {
		events[i] = []byte(s)
	}
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			for _, e := range events {
				fieldsOf(e)
			}
		}
	})
	b.Run("unmarshal", func(b *testing.B) {
		for b.Loop() {
			for _, e := range events {
				fieldsOfUnmarshal(e)
			}
		}
	})
}
