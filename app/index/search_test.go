package index

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// corpusSession copies one recorded corpus session (its folder: the transcript and its subagents') into a fresh
// config dir and opens an index over it with the real sidecar.
func corpusSession(t *testing.T, folder string) (*Index, string) {
	t.Helper()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	config := t.TempDir()
	src := filepath.Join(root, "sidecar", "testdata", "corpus", "projects", folder)
	dst := filepath.Join(config, "projects", folder)
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	m := NewSidecarMapper(sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)})
	t.Cleanup(m.Release)
	ix, err := Open(context.Background(), Options{Dir: t.TempDir(), ProjectsDir: filepath.Join(config, "projects"), Mapper: m,
		Version: "test", Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	return ix, dst
}

func searchFor(t *testing.T, ix *Index, text string) []Hit {
	t.Helper()
	require.NoError(t, ix.WaitBuilt(context.Background()))
	hits, err := ix.Search(context.Background(), SearchQuery{Text: text, Limit: 1000})
	require.NoError(t, err)
	return hits
}

// A recorded transcript is found by a part of a path a tool wrote, every word must be in one item, and a
// rewritten transcript's new generation replaces its search rows in the same transaction: the old words are gone
// and nothing is found twice.
func TestSearchFollowsTheTranscriptsGenerations(t *testing.T) {
	ix, dir := corpusSession(t, "-home-user-v2-0-tools")
	hits := searchFor(t, ix, "v2-0-tools/notes")
	require.NotEmpty(t, hits)
	roles := map[Role]bool{}
	for _, h := range hits {
		roles[h.Role] = true
		require.Equal(t, "55844502-5ea1-44d5-a7aa-10bf81c05b37", h.Session)
	}
	require.True(t, roles[RoleTool] && roles[RoleToolOutput], "tool inputs and outputs: %v", roles)
	faster := len(searchFor(t, ix, "faster"))
	require.NotZero(t, faster)
	require.Empty(t, searchFor(t, ix, "faster zyzzyva"), "every word in one item")

	before := searchRows(t, ix)
	path := filepath.Join(dir, "55844502-5ea1-44d5-a7aa-10bf81c05b37.jsonl")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(string(data), "faster", "quicker")), 0o600))
	ix.Touch("55844502-5ea1-44d5-a7aa-10bf81c05b37")
	require.NoError(t, ix.Ensure(context.Background(), "55844502-5ea1-44d5-a7aa-10bf81c05b37"))
	require.Empty(t, searchFor(t, ix, "faster"))
	require.Len(t, searchFor(t, ix, "quicker"), faster)
	require.Equal(t, before, searchRows(t, ix), "the new generation's rows only")
}

func searchRows(t *testing.T, ix *Index) int {
	var n int
	require.NoError(t, ix.st.reader.QueryRow("SELECT COUNT(*) FROM search").Scan(&n))
	return n
}

// An in-session find keeps the one session's hits, in the order of its history, and finds all of them: a copy of
// the transcript under another id holds the same words and is left out.
func TestSearchInOneSessionKeepsItsHitsInHistoryOrder(t *testing.T) {
	const id, copyID = "55844502-5ea1-44d5-a7aa-10bf81c05b37", "55844502-0000-4000-8000-000000000002"
	ix, dir := corpusSession(t, "-home-user-v2-0-tools")
	data, err := os.ReadFile(filepath.Join(dir, id+".jsonl"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, copyID+".jsonl"), []byte(strings.ReplaceAll(string(data), id, copyID)), 0o600))
	ix.Touch(copyID)
	all := searchFor(t, ix, "faster")
	mine := 0
	for _, h := range all {
		if h.Session == id {
			mine++
		}
	}
	require.NotZero(t, mine)
	require.Less(t, mine, len(all), "the copy holds the word too")

	hits, err := ix.Search(context.Background(), SearchQuery{Text: "faster", Session: id, Limit: 1000})
	require.NoError(t, err)
	require.Len(t, hits, mine)
	for i, h := range hits {
		require.Equal(t, id, h.Session)
		if i > 0 {
			require.Greater(t, h.Position, hits[i-1].Position, "in the order of the history")
		}
	}
	none, err := ix.Search(context.Background(), SearchQuery{Text: "faster", Session: "00000000-0000-4000-8000-00000000dead"})
	require.NoError(t, err)
	require.Empty(t, none)
}
