package gen

import (
	"encoding/json"
	"fmt"
	"go/format"
	"testing"

	"github.com/stretchr/testify/require"
)

// oneKind is a schema of one kind a.one {n: string, e: E} whose terminal is the given JSON.
func oneKind(terminal string) []byte {
	return fmt.Appendf(nil, `{"x-version":4,"x-events":[
		{"kind":"a.one","origin":"sidecar","$ref":"#/$defs/AOneEvent","terminal":%s}],
	 "x-requests":[],
	 "$defs":{
		"ErrorCode":{"type":"string","enum":["internal"]},
		"E":{"type":"string","enum":["red","blue"]},
		"AOneEvent":{"type":"object","properties":{"kind":{"type":"string","const":"a.one"},"session":{"type":"string"},
			"n":{"type":"string"},"e":{"$ref":"#/$defs/E"}},"required":["kind","session","n","e"]}}}`, terminal)
}

func terminalOf(t *testing.T, terminal string) (string, error) {
	t.Helper()
	schema := oneKind(terminal)
	var doc Document
	require.NoError(t, json.Unmarshal(schema, &doc))
	code, err := terminalFile(&doc, schema)
	if err != nil {
		return "", err
	}
	src, err := format.Source([]byte(code))
	require.NoError(t, err)
	return string(src), nil
}

// A terminal line's template is checked against the kind's fields when it is generated, not when it prints.
func TestTerminalTemplatesAreChecked(t *testing.T) {
	for terminal, want := range map[string]string{
		`{"lines":[{"text":"{x}"}]}`:                                      `no field "x"`,
		`{"lines":[{"text":"{n|bold}"}]}`:                                 `unknown filter "bold"`,
		`{"lines":[{"text":"{e|say}"}]}`:                                  "say: no words table for e",
		`{"lines":[{"text":"{e|say}"}],"words":{"e":{"green":"g"}}}`:      `"green" is not a E`,
		`{"lines":[{"when":"e == green","text":"x"}]}`:                    `"green" is not a E`,
		`{"lines":[{"text":"{n|line=}"}]}`:                                "line needs a count",
		`{"lines":[{"text":"{n"}]}`:                                       "a { without its }",
		`{}`:                                                              "no lines, quiet or byHand",
		`{"lines":[{"each":"n","text":"{n}"}]}`:                           "not a list of objects",
		`{"lines":[{"when":"n == x","text":"{e|say}"}],"words":{"n":{}}}`: "say: no words table for e",
	} {
		_, err := terminalOf(t, terminal)
		require.ErrorContains(t, err, want, terminal)
	}
}

// A template becomes one append per line, under its tests; quiet kinds get a case that prints nothing.
func TestTerminalTemplateCode(t *testing.T) {
	code, err := terminalOf(t, `{"lines":[{"when":"e == red && n","text":"{e|say} {n|line=9|lead=: }"},{"history":true,"text":"{session}"}],
		"words":{"e":{"red":"R","*":"?"}}}`)
	require.NoError(t, err)
	require.Contains(t, code, `if ev.E == "red" && ev.N != "" {`)
	require.Contains(t, code, `b = append(b, termSay(sayAOneE, string(ev.E))+" "+suffix(": ", oneLine(ev.N, 9))+"\n"...)`)
	require.Contains(t, code, "if history {\n\t\t\tb = append(b, ev.Session+\"\\n\"...)")
	require.Contains(t, code, `var sayAOneE = map[string]string{"*": "?", "red": "R"}`)
	quiet, err := terminalOf(t, `{"quiet":"nothing to say"}`)
	require.NoError(t, err)
	require.Contains(t, quiet, "case activity.AOne:\n\t\t// Quiet: nothing to say.\n\t}")
}
