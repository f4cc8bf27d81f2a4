package index

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// fieldsOf reads events as encoding/json does (it decodes with segmentio's, for speed): the same fields, and the
// same events refused.
func TestFieldsOfReadsAsEncodingJSON(t *testing.T) {
	for _, event := range []string{
		`{"kind":"turn.started","time":"2026-12-01T08:00:00.000Z","turn":"t1","prompt":"find the \"widget\" \u00e9\ud83d\ude00 <b>"}`,
		`{"kind":"tool.started","name":"Bash","input":{"command":"ls -la","nested":[{"path":"/a b"},2,null,"x"]},"parentToolUseId":"toolu_1"}`,
		`{"kind":"usage.recorded","time":"2026-12-01T08:00:00Z","model":"m","messageId":"msg_1","inputTokens":12,"outputTokens":3,"cacheReadTokens":0,"cacheCreationTokens":7}`,
		`{"kind":"turn.completed","time":"2026-12-01T08:00:00Z","costUsd":0.25}`,
		`{"kind":"turn.completed","costUsd":null,"text":null}`,
		`{"KIND":"message.completed","Text":"keys matched without regard to case"}`,
		`{"kind":"message.delta","ephemeral":true,"text":"not stored"}`,
		`{"kind":"message.completed","text":5}`,              // a field of another type
		`{"kind":"usage.recorded","inputTokens":1.5}`,        // not an integer
		`{"kind":"message.completed","text":"a","text":"b"}`, // the last one counts
		`{"kind":"x","unknown":{"deep":[1,2,{"a":"b"}]}}`,
		"{\"kind\":\"message.completed\",\"text\":\"invalid \xff UTF-8\"}",
		`{"kind":"message.completed","text":"lone surrogates \ud800 \udc00"}`,
		`["not","an","object"]`,
		`{"kind":"x"`,
	} {
		var want eventFields
		wantOK := json.Unmarshal([]byte(event), &want) == nil && !want.Ephemeral
		got, ok := fieldsOf([]byte(event))
		require.Equal(t, wantOK, ok, event)
		if ok {
			require.Equal(t, want, got, event)
		}
	}
}
