package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const root = "../../../.."

// The checked-in Go files are exactly what the schema generates: a kind or request added to the schema (or a
// hand edit of a generated file) fails here until scripts/gen-protocol is run.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(root, SchemaPath))
	require.NoError(t, err)
	console, err := os.ReadFile(filepath.Join(root, ConsolePath))
	require.NoError(t, err)
	files, err := Generate(schema, console)
	require.NoError(t, err)
	for _, f := range files {
		have, err := os.ReadFile(filepath.Join(root, f.Path))
		require.NoError(t, err, "%s is missing: run scripts/gen-protocol", f.Path)
		require.Equal(t, string(f.Content), string(have), "%s is stale: run scripts/gen-protocol", f.Path)
	}
}

// One JSON name has one type across kinds; the generator refuses a schema that breaks the rule.
func TestGeneratorRefusesAFieldWithTwoTypes(t *testing.T) {
	schema := []byte(`{"x-version":2,"x-events":[
		{"kind":"a.one","origin":"sidecar","$ref":"#/$defs/AOneEvent"},
		{"kind":"a.two","origin":"sidecar","$ref":"#/$defs/ATwoEvent"}],
	 "x-requests":[],
	 "$defs":{
		"ErrorCode":{"type":"string","enum":["internal"]},
		"AOneEvent":{"type":"object","properties":{"kind":{"type":"string","const":"a.one"},"n":{"type":"string"}},"required":["kind"]},
		"ATwoEvent":{"type":"object","properties":{"kind":{"type":"string","const":"a.two"},"n":{"type":"integer"}},"required":["kind"]}}}`)
	_, err := Generate(schema, []byte(`{"methods":[]}`))
	require.ErrorContains(t, err, `field "n"`)
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"toolUseId": "ToolUseID", "uuid": "UUID", "session.started": "SessionStarted", "api_error": "APIError",
		"httpStatus": "HTTPStatus", "costUsd": "CostUsd", "set_permission_mode": "SetPermissionMode",
	} {
		require.Equal(t, want, GoName(in), in)
	}
}
