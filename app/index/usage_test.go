package index

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// corpusIndex is an index over the whole recorded corpus (sidecar/testdata/corpus: real CLI transcripts), built
// with the real sidecar.
func corpusIndex(t *testing.T) *Index {
	t.Helper()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	config := t.TempDir()
	require.NoError(t, os.CopyFS(filepath.Join(config, "projects"), os.DirFS(filepath.Join(root, "sidecar", "testdata", "corpus", "projects"))))
	m := NewSidecarMapper(sidecar.Config{Path: testenv.SidecarPath(t), Env: append(os.Environ(), "CLAUDE_CONFIG_DIR="+config)})
	t.Cleanup(m.Release)
	ix, err := Open(context.Background(), Options{Dir: t.TempDir(), ProjectsDir: filepath.Join(config, "projects"), Mapper: m,
		Version: "test", Logger: zerolog.Nop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ix.Close() })
	require.NoError(t, ix.WaitBuilt(context.Background()))
	return ix
}

// Usage over the recorded corpus equals the count by hand, session by session, for the 2.0.x sessions: every
// assistant line's usage record (not the CLI's own <synthetic> error stubs), each message.id once at its largest
// counts, a subagent's file included. Counted with a short script over the files and checked by eye; the corpus
// records no cache tokens. Not counted: the "Warmup" requests 2.0.x made on its own (agent files answering
// "Warmup", ~800 tokens each), which history leaves out. The 1.0.x sessions repeat a resumed conversation's
// messages with other counts, so they are only summed here, not compared.
func TestUsageTotalsEqualTheHandCountOverTheCorpus(t *testing.T) {
	ix := corpusIndex(t)
	rep, err := ix.Usage(context.Background(), UsageQuery{By: UsageBySession})
	require.NoError(t, err)
	got := map[string][2]int64{}
	for _, r := range rep.Rows {
		got[r.Key] = [2]int64{r.Input, r.Output}
		require.Zero(t, r.CacheRead+r.CacheWrite)
	}
	byHand := map[string][2]int64{
		"55844502-5ea1-44d5-a7aa-10bf81c05b37": {143847, 228},       // tools
		"0159a16e-2126-4948-b921-3f4767524d64": {63250, 40},         // compaction: the turns before it too
		"0052222a-764a-40b3-ad7e-8d888e701194": {30980 + 21660, 69}, // the session and its subagent's file
		"828784c2-d85c-425d-8209-93b2e40be2c2": {30877, 36},         // killed mid-tool
		"d5ce63c1-36dc-4930-b907-1f5353607a29": {15409, 3},          // an API error: its stub has no usage
	}
	for id, want := range byHand {
		require.Equal(t, want, got[id], "session %s (input, output)", id)
	}
	require.Len(t, got, 10, "every session of the corpus has usage")

	models, err := ix.Usage(context.Background(), UsageQuery{By: UsageByModel})
	require.NoError(t, err)
	require.Equal(t, rep.Total.Input, models.Total.Input)
	require.Positive(t, models.Total.CostUSD)
	require.Equal(t, models.Total.CostUSD, models.Total.EstimatedUSD, "no turn reported a cost: all of it is an estimate")
	require.Zero(t, models.Total.UnpricedTokens)
	require.NotEmpty(t, models.PricesDate)
	for _, r := range models.Rows {
		require.NotEqual(t, "<synthetic>", r.Key)
	}
}

// The price table is kept with the pinned SDK: a new SDK version fails here until the table is reviewed.
func TestPricesAreKeptWithThePinnedSDK(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "sidecar", "package.json"))
	require.NoError(t, err)
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	require.NoError(t, json.Unmarshal(data, &pkg))
	require.Equal(t, pkg.Dependencies["@anthropic-ai/claude-agent-sdk"], Prices().SDK)
	cost, ok := Prices().estimate("claude-sonnet-4-5-20250929", 1e6, 1e6, 1e6, 1e6)
	require.True(t, ok)
	require.InDelta(t, 3+15+0.3+3.75, cost, 1e-9)
}
