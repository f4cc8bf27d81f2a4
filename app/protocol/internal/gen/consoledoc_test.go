package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// API.md's call and push tables are what console.json renders: a call added to the contract (or a hand edit
// between the markers) fails here until scripts/gen-protocol is run.
func TestAPIDocTablesAreCurrent(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(root, SchemaPath))
	require.NoError(t, err)
	console, err := os.ReadFile(filepath.Join(root, ConsolePath))
	require.NoError(t, err)
	have, err := os.ReadFile(filepath.Join(root, APIDocPath))
	require.NoError(t, err)
	want, err := APIDoc(have, schema, console)
	require.NoError(t, err)
	if string(want) != string(have) {
		t.Fatalf("%s's generated tables are stale: run scripts/gen-protocol (first difference: %q)", APIDocPath, firstDiff(string(have), string(want)))
	}
}

// Only the text between the markers is the generator's; a document without them is refused, not rewritten.
func TestAPIDocNeedsItsMarkers(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join(root, SchemaPath))
	require.NoError(t, err)
	console, err := os.ReadFile(filepath.Join(root, ConsolePath))
	require.NoError(t, err)
	_, err = APIDoc([]byte("# no tables here\n"), schema, console)
	require.ErrorContains(t, err, "lacks the markers")
}

// firstDiff is the first line of want that have lacks, to say where the document is stale without printing it.
func firstDiff(have, want string) string {
	hl, wl := strings.Split(have, "\n"), strings.Split(want, "\n")
	for i, w := range wl {
		if i >= len(hl) || hl[i] != w {
			return w
		}
	}
	return ""
}
