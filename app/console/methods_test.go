package console

import (
	"reflect"
	"sort"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// The served method set is exactly console.json's list (the frontend's ApiMethods is generated from the same
// file), and every name is an exported method of API, which the window binds.
func TestMethodsMatchTheConsoleSchema(t *testing.T) {
	served := Methods(&API{})
	var names []string
	for name := range served {
		names = append(names, name)
	}
	want := append([]string(nil), MethodNames...)
	sort.Strings(names)
	sort.Strings(want)
	require.Equal(t, want, names, "console.Methods and app/protocol/schema/console.json disagree")

	// The error codes a call may fail with are console.json's.
	require.ElementsMatch(t, ErrorCodes, []string{CodeBadRequest, CodeNotFound, CodeUnavailable, CodeInternal})

	api := reflect.TypeOf(&API{})
	for _, name := range MethodNames {
		exported := string(unicode.ToUpper(rune(name[0]))) + name[1:]
		_, ok := api.MethodByName(exported)
		require.True(t, ok, "API has no method %s for console call %q", exported, name)
	}
}
