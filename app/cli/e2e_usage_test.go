package cli_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// baton usage over two turns Baton ran: the tokens are the transcript's own usage records counted once per
// message (counted here straight from the file), and the cost is what Claude Code reported for the turns, no
// estimate.
func TestUsageCountsTheTranscriptAndTheReportedCost(t *testing.T) {
	h := newCLIHarness(t)
	const id = "5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f74"
	var reported float64
	for _, args := range [][]string{{"--session-id", id, "[think] hello"}, {"--resume", id, "[bash echo hi]"}} {
		r := h.run(append([]string{"exec", "--json", "--approve", "all", "--permission-mode", "default"}, args...)...)
		require.Equal(t, 0, r.code, r.stderr)
		for _, ev := range find(parseEvents(t, r.stdout), activity.TurnCompleted) {
			require.NotNil(t, ev.CostUsd)
			reported += *ev.CostUsd
		}
	}
	require.Positive(t, reported)

	r := h.run("usage", "--by", "session", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var rep struct {
		Rows []struct {
			Key          string  `json:"key"`
			Input        int64   `json:"inputTokens"`
			Output       int64   `json:"outputTokens"`
			CacheRead    int64   `json:"cacheReadTokens"`
			CacheWrite   int64   `json:"cacheWriteTokens"`
			CostUSD      float64 `json:"costUsd"`
			EstimatedUSD float64 `json:"estimatedUsd"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	require.Len(t, rep.Rows, 1)
	row := rep.Rows[0]
	require.Equal(t, id, row.Key)
	require.Equal(t, countByHand(t, h, id), [4]int64{row.Input, row.Output, row.CacheRead, row.CacheWrite})
	require.InDelta(t, reported, row.CostUSD, 1e-9)
	require.Zero(t, row.EstimatedUSD)

	r = h.run("usage", "--by", "model")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "total")
	r = h.run("usage", "--by", "year")
	require.Equal(t, 2, r.code)
}

// countByHand sums the session file's assistant usage records, each message id once at its largest counts.
func countByHand(t *testing.T, h *cliHarness, id string) [4]int64 {
	files, err := filepath.Glob(filepath.Join(h.home, ".claude", "projects", "*", id+".jsonl"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	f, err := os.Open(files[0])
	require.NoError(t, err)
	defer func() { _ = f.Close() }()
	byMessage := map[string][4]int64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			Message struct {
				ID    string `json:"id"`
				Model string `json:"model"`
				Usage *struct {
					Input      int64 `json:"input_tokens"`
					Output     int64 `json:"output_tokens"`
					CacheRead  int64 `json:"cache_read_input_tokens"`
					CacheWrite int64 `json:"cache_creation_input_tokens"`
				} `json:"usage"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "assistant" || line.Message.Usage == nil || line.Message.Model == "<synthetic>" {
			continue
		}
		u, c := line.Message.Usage, byMessage[line.Message.ID]
		byMessage[line.Message.ID] = [4]int64{max(c[0], u.Input), max(c[1], u.Output), max(c[2], u.CacheRead), max(c[3], u.CacheWrite)}
	}
	var sum [4]int64
	for _, c := range byMessage {
		for i := range sum {
			sum[i] += c[i]
		}
	}
	require.Positive(t, sum[0])
	return sum
}
