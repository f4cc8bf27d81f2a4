package gen

import (
	"os"
	"path/filepath"
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
	require.Equal(t, string(want), string(have), "%s's generated tables are stale: run scripts/gen-protocol", APIDocPath)
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
