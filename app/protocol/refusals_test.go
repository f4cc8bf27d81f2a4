package protocol_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/stretchr/testify/require"
)

// propSchema is the part of a property's JSON Schema these refusals are derived from.
type propSchema struct {
	Ref       string          `json:"$ref"`
	Type      json.RawMessage `json:"type"`
	Const     json.RawMessage `json:"const"`
	MinLength *int            `json:"minLength"`
}

type kindSchema struct {
	Properties map[string]propSchema `json:"properties"`
	Required   []string              `json:"required"`
}

// What the schema refuses of a value, the host refuses too: for every sidecar kind, its valid.ndjson line with
// one field made into a value its schema does not allow (an empty string where it asks for a minimum length, null
// for a required number, boolean, object or list, false where it fixes true) is a protocol error. The cases are
// read from wire.schema.json, so a rule added to the zod schemas is checked here without a hand-written copy.
func TestHostRefusesWhatTheSchemaRefuses(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("schema", "wire.schema.json"))
	require.NoError(t, err)
	var doc struct {
		Events []struct {
			Kind   string `json:"kind"`
			Origin string `json:"origin"`
			Ref    string `json:"$ref"`
		} `json:"x-events"`
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	lines := firstLineOfEachKind(t)
	counts := map[string]int{}
	for _, ev := range doc.Events {
		if ev.Origin != "sidecar" {
			continue
		}
		var ks kindSchema
		require.NoError(t, json.Unmarshal(doc.Defs[strings.TrimPrefix(ev.Ref, "#/$defs/")], &ks))
		line, ok := lines[ev.Kind]
		require.True(t, ok, "valid.ndjson has no %s event", ev.Kind)
		for name, p := range ks.Properties {
			if !slices.Contains(ks.Required, name) || name == "kind" || name == "time" {
				continue
			}
			for _, c := range refusedValues(p) {
				counts[c.rule]++
				mutated := withField(t, line, name, c.value)
				_, err := activity.DecodeEvent(mutated)
				require.Error(t, err, "%s with %s = %s (%s) must be refused: %s", ev.Kind, name, c.value, c.rule, mutated)
			}
		}
	}
	// Each rule is exercised (a schema export that dropped minLength would otherwise make this test vacuous).
	for _, rule := range []string{"minLength", "not null", "const true"} {
		require.Positive(t, counts[rule], "no field of the schema has a %s rule", rule)
	}
}

type refusal struct {
	rule  string
	value string
}

// refusedValues are values the property's schema refuses that a Go value could still be decoded from.
func refusedValues(p propSchema) []refusal {
	var types []string
	if len(p.Type) > 0 && json.Unmarshal(p.Type, &types) != nil {
		var one string
		_ = json.Unmarshal(p.Type, &one)
		types = []string{one}
	}
	var out []refusal
	if p.MinLength != nil && *p.MinLength > 0 {
		out = append(out, refusal{"minLength", `""`})
	}
	if string(p.Const) == "true" {
		out = append(out, refusal{"const true", "false"})
	}
	nullable := slices.Contains(types, "null") || p.Ref == "#/$defs/Json"
	// A plain string decodes null as "" (indistinguishable from an empty value in Go); the rest are pointers,
	// lists or enums.
	pointerLike := p.Ref != "" || slices.ContainsFunc(types, func(t string) bool { return t != "string" && t != "null" })
	if !nullable && pointerLike {
		out = append(out, refusal{"not null", "null"})
	}
	return out
}

func firstLineOfEachKind(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, line := range fixtureLines(t, "valid.ndjson") {
		env, err := protocol.DecodeLine([]byte(line))
		require.NoError(t, err)
		if env.Type != protocol.TypeEvent {
			continue
		}
		var head struct{ Kind string }
		require.NoError(t, json.Unmarshal(env.Event, &head))
		if _, seen := out[head.Kind]; !seen {
			out[head.Kind] = env.Event
		}
	}
	return out
}

func withField(t *testing.T, line []byte, name, value string) []byte {
	var fields map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(line, &fields))
	fields[name] = json.RawMessage(value)
	out, err := json.Marshal(fields)
	require.NoError(t, err)
	return out
}
