package console

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/stretchr/testify/require"
)

func codeOf(t *testing.T, err error) string {
	t.Helper()
	var e *Error
	require.True(t, errors.As(err, &e), "want a console error, got %v", err)
	return e.Code
}

func TestCompletePathOffersOnlyFolders(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"project-a", "Project-B", "other", ".hidden-project", "project-a/inner"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o700))
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "project-file.txt"), nil, 0o600))
	require.NoError(t, os.Symlink(filepath.Join(root, "other"), filepath.Join(root, "project-link")))
	require.NoError(t, os.Symlink(filepath.Join(root, "project-file.txt"), filepath.Join(root, "project-file-link")))
	api := &API{}

	res, err := api.CompletePath(CompleteParams{Path: filepath.Join(root, "proj")})
	require.NoError(t, err)
	require.Equal(t, root, res.Dir)
	var names []string
	for _, e := range res.Entries {
		names = append(names, e.Name)
		require.Equal(t, filepath.Join(root, e.Name), e.Path)
	}
	require.Equal(t, []string{"project-a", "Project-B", "project-link"}, names, "folders and links to folders, by name, ignoring case; never files or what is inside")
	require.False(t, res.Truncated)

	res, err = api.CompletePath(CompleteParams{Path: root + string(filepath.Separator)})
	require.NoError(t, err)
	require.Len(t, res.Entries, 4, "a trailing separator lists the folder itself; hidden ones wait for a dot")
	res, err = api.CompletePath(CompleteParams{Path: filepath.Join(root, ".h")})
	require.NoError(t, err)
	require.Len(t, res.Entries, 1)
	require.Equal(t, ".hidden-project", res.Entries[0].Name)
}

func TestCompletePathIsBounded(t *testing.T) {
	root := t.TempDir()
	for i := range maxCompletions + 5 {
		require.NoError(t, os.Mkdir(filepath.Join(root, fmt.Sprintf("d%03d", i)), 0o700))
	}
	res, err := (&API{}).CompletePath(CompleteParams{Path: filepath.Join(root, "d")})
	require.NoError(t, err)
	require.Len(t, res.Entries, maxCompletions)
	require.True(t, res.Truncated)
	require.Equal(t, "d000", res.Entries[0].Name)
}

func TestCompletePathErrorsReadWell(t *testing.T) {
	api := &API{}
	_, err := api.CompletePath(CompleteParams{Path: "relative/path"})
	require.Equal(t, CodeBadRequest, codeOf(t, err))
	require.ErrorContains(t, err, "full path")
	missing := filepath.Join(t.TempDir(), "gone", "x")
	_, err = api.CompletePath(CompleteParams{Path: missing})
	require.Equal(t, CodeNotFound, codeOf(t, err))
	require.ErrorContains(t, err, "There is no folder")

	home, err := os.UserHomeDir()
	require.NoError(t, err)
	res, err := api.CompletePath(CompleteParams{Path: "~/"})
	require.NoError(t, err)
	require.Equal(t, filepath.Clean(home), res.Dir)
}

func TestSessionFlagsAreKeptDurably(t *testing.T) {
	const id = "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	dir := t.TempDir()
	store, err := sessionmeta.Open(dir)
	require.NoError(t, err)
	api := &API{opts: Options{Meta: store}}
	yes, no := true, false
	res, err := api.SetSessionFlags(FlagsParams{Session: id, Pinned: &yes})
	require.NoError(t, err)
	require.Equal(t, FlagsResult{Pinned: true}, res)
	res, err = api.SetSessionFlags(FlagsParams{Session: id, Archived: &yes})
	require.NoError(t, err)
	require.Equal(t, FlagsResult{Pinned: true, Archived: true}, res, "a field left out is left as it is")
	res, err = api.SetSessionFlags(FlagsParams{Session: id, Pinned: &no})
	require.NoError(t, err)
	require.Equal(t, FlagsResult{Archived: true}, res)

	reopened, err := sessionmeta.Open(dir)
	require.NoError(t, err)
	require.Equal(t, sessionmeta.Meta{Archived: true}, reopened.Get(id))

	_, err = api.SetSessionFlags(FlagsParams{Session: "../etc", Pinned: &yes})
	require.Equal(t, CodeBadRequest, codeOf(t, err))
	_, err = (&API{}).SetSessionFlags(FlagsParams{Session: id, Pinned: &yes})
	require.Equal(t, CodeUnavailable, codeOf(t, err))
}

func TestRenameSessionChecksTheTitle(t *testing.T) {
	api := &API{}
	_, err := api.RenameSession(RenameParams{Session: "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", Title: "  \n "})
	require.Equal(t, CodeBadRequest, codeOf(t, err))
	long := make([]rune, maxTitleChars+1)
	for i := range long {
		long[i] = 'é'
	}
	_, err = api.RenameSession(RenameParams{Session: "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", Title: string(long)})
	require.Equal(t, CodeBadRequest, codeOf(t, err))
	_, err = api.RenameSession(RenameParams{Session: "not-a-session", Title: "ok"})
	require.Equal(t, CodeBadRequest, codeOf(t, err))
}

func TestADamagedSessionsFileSaysSoWhenPinning(t *testing.T) {
	dir := t.TempDir()
	damaged := []byte(`{"version":1,"sessions":{`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, sessionmeta.FileName), damaged, 0o600))
	store, err := sessionmeta.Open(dir)
	require.Error(t, err)
	api := &API{opts: Options{Meta: store}}
	yes := true
	_, err = api.SetSessionFlags(FlagsParams{Session: "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", Pinned: &yes})
	var apiErr *Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, CodeUnavailable, apiErr.Code)
	require.Contains(t, apiErr.Message, "is damaged")
	require.Contains(t, apiErr.Message, "Move it aside")
	require.NotContains(t, apiErr.Message, "no data folder")
	data, err := os.ReadFile(filepath.Join(dir, sessionmeta.FileName))
	require.NoError(t, err)
	require.Equal(t, damaged, data, "the damaged file is kept as it was")
}

// A title given in Baton (a fork's "Fork of …") is listed even when the stored session has another (its first
// prompt, the parent's): a fork's transcript holds no title until its first turn.
func TestListedTitleIsTheOneGivenInBaton(t *testing.T) {
	stored := protocol.SessionInfo{Session: "s", Title: "the parent's first prompt"}
	require.Equal(t, "Fork of parent", sessionEntry(stored, false, sessionmeta.Meta{Title: "Fork of parent"}).Title)
	require.Equal(t, "the parent's first prompt", sessionEntry(stored, false, sessionmeta.Meta{}).Title)

	dir := t.TempDir()
	store, err := sessionmeta.Open(dir)
	require.NoError(t, err)
	api := &API{opts: Options{Meta: store}}
	require.True(t, api.recordTitle("s", "Fork of parent"))
	reopened, err := sessionmeta.Open(dir)
	require.NoError(t, err)
	require.Equal(t, "Fork of parent", reopened.Get("s").Title, "the title survives a restart")
}
