package console

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/session"
)

func TestFindFilesRanksTheFolderAndSaysWhatIsWrong(t *testing.T) {
	api := New(Options{Sessions: session.NewManager(session.Config{})})
	defer Release(api)
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "src", "main.go"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "README.md"), nil, 0o644))

	res, err := api.FindFiles(FindFilesParams{Cwd: root, Query: "main"})
	require.NoError(t, err)
	assert.Equal(t, []FileMatch{{Path: "src/main.go", Dir: false}}, res.Matches)
	assert.Equal(t, 3, res.Listed)

	res, err = api.FindFiles(FindFilesParams{Cwd: root, Query: "", Limit: 1})
	require.NoError(t, err)
	assert.Len(t, res.Matches, 1)

	_, err = api.FindFiles(FindFilesParams{Cwd: "relative/dir", Query: "x"})
	assert.ErrorContains(t, err, "full path")
	_, err = api.FindFiles(FindFilesParams{Cwd: filepath.Join(root, "gone"), Query: "x"})
	var apiErr *Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, CodeNotFound, apiErr.Code)
}
