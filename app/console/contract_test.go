package console

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/discovery"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/stretchr/testify/require"
)

// contractDef is one $defs entry of console.json, as far as these tests read it.
type contractDef struct {
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
	Enum       []string                   `json:"enum"`
}

func contractDefs(t *testing.T) map[string]contractDef {
	t.Helper()
	data, err := os.ReadFile("../protocol/schema/console.json")
	require.NoError(t, err)
	var doc struct {
		Defs map[string]contractDef `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	return doc.Defs
}

// jsonFields maps a struct's JSON names to whether each is always written (no omitempty or omitzero).
func jsonFields(typ reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range typ.NumField() {
		name, opts, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		out[name] = !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero")
	}
	return out
}

// The contract's shapes another package owns are declared by hand (AuthState is app/auth's State); each must have
// exactly the contract's fields, required where the contract requires them, and its enums the contract's values.
func TestBoundTypesMatchTheContract(t *testing.T) {
	defs := contractDefs(t)
	for name, typ := range map[string]reflect.Type{
		"AuthState":   reflect.TypeFor[AuthState](),
		"AuthWarning": reflect.TypeFor[auth.Warning](),
		"ModelList":   reflect.TypeFor[discovery.Models](),
	} {
		def, ok := defs[name]
		require.True(t, ok, "console.json has no %s", name)
		want := map[string]bool{}
		for prop := range def.Properties {
			want[prop] = false
		}
		for _, r := range def.Required {
			want[r] = true
		}
		require.Equal(t, want, jsonFields(typ), "%s (Go %s) and the contract's %s disagree (field: required)", name, typ, name)
	}
	require.Equal(t, defs["AuthStatus"].Enum, []string{string(auth.StatusSignedIn), string(auth.StatusSignedOut), string(auth.StatusUnknown)})
	require.Equal(t, defs["AuthMethod"].Enum, []string{string(auth.MethodSubscription), string(auth.MethodConsole),
		string(auth.MethodAPIKey), string(auth.MethodOAuthToken), string(auth.MethodThirdParty), string(auth.MethodOther)})
}

// A listed session keeps every field the stored one has: a field the wire's SessionInfo gains and the console's
// lacks (or sessionEntry forgets to copy) fails here.
func TestSessionEntryKeepsEveryStoredField(t *testing.T) {
	created := 7
	stored := protocol.SessionInfo{Session: "s", Title: "t", Cwd: "/c", LastModified: 9, CreatedAt: &created,
		GitBranch: "main", FirstPrompt: "p"}
	v := reflect.ValueOf(stored)
	for i := range v.NumField() {
		require.False(t, v.Field(i).IsZero(), "set %s in this test", v.Type().Field(i).Name)
	}
	var want, got map[string]any
	data, err := json.Marshal(stored)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &want))
	data, err = json.Marshal(sessionEntry(stored, true, sessionmeta.Meta{Pinned: true, ForkOf: "f"}))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &got))
	for k, val := range want {
		require.Equal(t, val, got[k], "listSessions drops or changes %q", k)
	}
	require.Equal(t, true, got["live"])
	require.Equal(t, true, got["pinned"])
	require.Equal(t, "f", got["forkOf"])
}

// Every push of the contract has its Pusher method (BatchPusher's Events for the batched one).
func TestPushersCarryEveryPush(t *testing.T) {
	methods := map[string]bool{}
	for _, typ := range []reflect.Type{reflect.TypeFor[Pusher](), reflect.TypeFor[BatchPusher]()} {
		for i := range typ.NumMethod() {
			methods[typ.Method(i).Name] = true
		}
	}
	for _, push := range PushNames {
		require.True(t, methods[strings.ToUpper(push[:1])+push[1:]], "no Pusher method for the %q push", push)
	}
}
