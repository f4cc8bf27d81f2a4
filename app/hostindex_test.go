package app

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"
)

// A headless command's Host lists stored sessions from the index in the data dir: the real sidecar titles them
// once and the index keeps them. `baton sessions`'s Host (its sidecar without the DFG tier) lists the same.
func TestCommandHostListsSessionsFromTheIndex(t *testing.T) {
	for name, open := range map[string]func(context.Context, zerolog.Logger) (*Host, error){
		"command": openCommandHost, "listing": openListingHost} {
		t.Run(name, func(t *testing.T) { testHostListsSessionsFromTheIndex(t, open) })
	}
}

func testHostListsSessionsFromTheIndex(t *testing.T, open func(context.Context, zerolog.Logger) (*Host, error)) {
	dataDir := useTempHome(t)
	t.Setenv("BATON_SIDECAR", testenv.SidecarPath(t))
	home := os.Getenv("HOME")
	id := "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	line := `{"type":"user","uuid":"7d3c1e2a-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"` + id + `","cwd":"` +
		home + `","message":{"role":"user","content":"Tidy the build script"},"timestamp":"2026-12-02T01:57:59.163Z",` +
		`"isSidechain":false,"userType":"external","version":"2.1.0"}` + "\n"
	path := filepath.Join(home, ".claude", "projects", "-p", id+".jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(line), 0o600))

	h, err := open(context.Background(), zerolog.Nop())
	require.NoError(t, err)
	t.Cleanup(h.Close)
	require.NotNil(t, h.index)
	list, err := h.Sessions().ListSessions(context.Background(), "", 0)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "Tidy the build script", list[0].Title)

	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "index.db")+"?mode=ro")
	require.NoError(t, err)
	defer func() { _ = db.Close() }()
	var title string
	require.NoError(t, db.QueryRow("SELECT title FROM sessions WHERE session = ? AND listed = 1", id).Scan(&title))
	require.Equal(t, "Tidy the build script", title, "the index holds what was listed")
}

// Only a sidecar that lists runs without the DFG tier (runtimeenv.go keeps a setting of the person's own).
func TestMapperRuntimeLeavesOutTheDFGTierOnlyForListing(t *testing.T) {
	require.Equal(t, []string{"BUN_JSC_useDFGJIT=0"}, mapperRuntime(indexList))
	require.Nil(t, mapperRuntime(indexRead), "a command that reads history maps transcripts")
	require.Nil(t, mapperRuntime(indexBuild))
}
