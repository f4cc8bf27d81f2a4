package index

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	require.Contains(t, Prices().Source, "https://platform.claude.com/docs/en/about-claude/pricing")
	// A point release is priced as itself, not as the version its name begins with (checked against the
	// pricing page and the model pages, see source).
	for model, want := range map[string]float64{
		"claude-opus-5-5":           4 + 20 + 0.2 + 5,
		"claude-opus-5":             5 + 25 + 0.5 + 6.25,
		"claude-opus-4-1-20250805":  15 + 75 + 1.5 + 18.75,
		"claude-sonnet-5-5":         2 + 10 + 0.1 + 2.5,
		"claude-sonnet-5":           2 + 10 + 0.2 + 2.5,
		"claude-haiku-4-5-20251001": 1 + 5 + 0.1 + 1.25,
		"claude-fable-5-1":          10 + 50 + 0.25 + 12.5,
		"claude-3-5-haiku-20241022": 0.8 + 4 + 0.08 + 1,
	} {
		cost, ok := Prices().estimate(model, 1e6, 1e6, 1e6, 1e6)
		require.True(t, ok, model)
		require.InDelta(t, want, cost, 1e-9, model)
	}
}

// A report reads the rollup (a few rows per session), not every response, and totals the same as the count of
// every usage row does, by every grouping, for one session, and from a bound inside a bucket (read from the rows).
func TestUsageReadsTheRollupAndTotalsAsEveryRowDoes(t *testing.T) {
	ix := corpusIndex(t)
	ctx := context.Background()
	var rollup, responses int
	require.NoError(t, ix.st.reader.QueryRowContext(ctx, "SELECT COUNT(*) FROM usage_rollup").Scan(&rollup))
	require.NoError(t, ix.st.reader.QueryRowContext(ctx, "SELECT COUNT(*) FROM usage WHERE cost IS NULL").Scan(&responses))
	require.Positive(t, rollup)
	require.Less(t, rollup*3, responses, "the rollup sums responses")
	for _, by := range []UsageBy{UsageByDay, UsageByWeek, UsageByMonth, UsageByProject, UsageByModel, UsageBySession} {
		q := UsageQuery{By: by}
		got, err := ix.Usage(ctx, q)
		require.NoError(t, err)
		raw, err := ix.readUsage(ctx, q, Prices())
		require.NoError(t, err)
		want := group(raw, by, Prices())
		requireSameUsage(t, want, got)
	}
	all, err := ix.Usage(ctx, UsageQuery{By: UsageBySession})
	require.NoError(t, err)
	one, err := ix.Usage(ctx, UsageQuery{By: UsageBySession, Session: "55844502-5ea1-44d5-a7aa-10bf81c05b37"})
	require.NoError(t, err)
	require.Len(t, one.Rows, 1)
	require.Equal(t, [2]int64{143847, 228}, [2]int64{one.Total.Input, one.Total.Output})
	odd := UsageQuery{By: UsageByDay, Since: time.UnixMilli(1).UTC()}
	require.False(t, odd.onRollup())
	fromRows, err := ix.Usage(ctx, odd)
	require.NoError(t, err)
	require.Equal(t, all.Total.Input, fromRows.Total.Input)
}

// An index made before the rollup is rolled up when it is opened, once.
func TestUsageRollsUpAnOlderIndexWhenOpened(t *testing.T) {
	ix := corpusIndex(t)
	ctx := context.Background()
	before, err := ix.Usage(ctx, UsageQuery{By: UsageByModel})
	require.NoError(t, err)
	_, err = ix.st.writer.ExecContext(ctx, "DELETE FROM usage_rollup; DELETE FROM meta WHERE key = 'rollup'")
	require.NoError(t, err)
	emptied, err := ix.Usage(ctx, UsageQuery{By: UsageByModel})
	require.NoError(t, err)
	require.Zero(t, emptied.Total.Input)
	require.NoError(t, ix.st.rollupAll(ctx))
	after, err := ix.Usage(ctx, UsageQuery{By: UsageByModel})
	require.NoError(t, err)
	requireSameUsage(t, before, after)
}

func requireSameUsage(t *testing.T, want, got UsageReport) {
	t.Helper()
	require.Equal(t, len(want.Rows), len(got.Rows), "groups")
	for i := range want.Rows {
		w, g := want.Rows[i], got.Rows[i]
		require.Equal(t, w.Key, g.Key)
		require.Equal(t, [5]int64{w.Input, w.Output, w.CacheRead, w.CacheWrite, w.UnpricedTokens},
			[5]int64{g.Input, g.Output, g.CacheRead, g.CacheWrite, g.UnpricedTokens}, "tokens of %s", w.Key)
		require.InDelta(t, w.CostUSD, g.CostUSD, 1e-9, "cost of %s", w.Key)
		require.InDelta(t, w.EstimatedUSD, g.EstimatedUSD, 1e-9, "estimate of %s", w.Key)
	}
	require.Equal(t, want.Total.Input+want.Total.Output, got.Total.Input+got.Total.Output)
}
