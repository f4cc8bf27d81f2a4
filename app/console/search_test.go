package console

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/index"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// The console's search and usage calls over an index of the recorded corpus (real CLI transcripts) built with the
// real sidecar: a hit carries its session, position and the marks of the match in its snippet; usage totals
// group as asked; bad input is bad_request and no index is unavailable.
func TestSearchAndUsageCallsAnswerFromTheIndex(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	config := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(config, "projects"), os.DirFS(filepath.Join(root, "sidecar", "testdata", "corpus", "projects"))))
	m := index.NewSidecarMapper(sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)})
	t.Cleanup(m.Release)
	ix, err := index.Open(context.Background(), index.Options{Dir: t.TempDir(), ProjectsDir: filepath.Join(config, "projects"),
		Mapper: m, Version: "test", Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	require.NoError(t, ix.WaitBuilt(context.Background()))
	api := &API{opts: Options{Index: ix, Sessions: session.NewManager(session.Config{})}}

	res, err := api.SearchSessions(SearchParams{Query: "KIWI"})
	require.NoError(t, err)
	require.NotEmpty(t, res.Hits)
	require.False(t, res.Indexing)
	for _, h := range res.Hits {
		require.NotEmpty(t, h.Marks, "%+v", h)
		require.Equal(t, "kiwi", h.Snippet[h.Marks[0].Start:h.Marks[0].End])
	}
	limit, many := 1, 1000
	one, err := api.SearchSessions(SearchParams{Query: "kiwi", Limit: &limit, Cwd: res.Hits[0].Cwd})
	require.NoError(t, err)
	require.Len(t, one.Hits, 1)
	// An in-session find: that session's hits only, in the order of its history.
	mineOnly, err := api.SearchSessions(SearchParams{Query: "kiwi", Session: res.Hits[0].Session, Limit: &many})
	require.NoError(t, err)
	require.NotEmpty(t, mineOnly.Hits)
	for i, h := range mineOnly.Hits {
		require.Equal(t, res.Hits[0].Session, h.Session)
		require.True(t, i == 0 || h.Position > mineOnly.Hits[i-1].Position, "history order: %+v", mineOnly.Hits)
	}
	_, err = api.SearchSessions(SearchParams{Query: "kiwi", Session: "../x"})
	require.Equal(t, CodeBadRequest, codeOf(t, err))
	_, err = api.SearchSessions(SearchParams{Query: "ki"})
	require.Equal(t, CodeBadRequest, codeOf(t, err))
	_, err = api.SearchSessions(SearchParams{Query: "kiwi", Since: "yesterday"})
	require.Equal(t, CodeBadRequest, codeOf(t, err))

	usage, err := api.UsageReport(UsageParams{By: UsageByModel})
	require.NoError(t, err)
	require.NotEmpty(t, usage.Rows)
	sum := 0
	for _, r := range usage.Rows {
		sum += r.InputTokens
	}
	require.Equal(t, usage.Total.InputTokens, sum)
	require.NotEmpty(t, usage.PricesDate)
	// The session header's total: one session's usage alone.
	const tools = "55844502-5ea1-44d5-a7aa-10bf81c05b37"
	mine, err := api.UsageReport(UsageParams{By: UsageBySession, Session: tools})
	require.NoError(t, err)
	require.Len(t, mine.Rows, 1)
	require.Equal(t, tools, mine.Rows[0].Key)
	require.Equal(t, 143847, mine.Total.InputTokens)

	_, err = (&API{}).SearchSessions(SearchParams{Query: "kiwi"})
	require.Equal(t, CodeUnavailable, codeOf(t, err))
}
