package index

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/protocol"
)

// textMapper is the stand-in whose items are command outputs carrying each line's "text", so every item has
// search text.
type textMapper struct{ *standInMapper }

func (m textMapper) Next(ctx context.Context, req protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error) {
	rep, err := m.standInMapper.Next(ctx, req)
	items := make([]protocol.TranscriptItem, len(rep.Items))
	for i, it := range rep.Items {
		var ev struct {
			Raw struct{ Line string } `json:"raw"`
		}
		var line struct{ Text string }
		if json.Unmarshal(it.Event, &ev) != nil || json.Unmarshal([]byte(ev.Raw.Line), &line) != nil {
			return rep, fmt.Errorf("not a stand-in item: %s", it.Event)
		}
		out, _ := json.Marshal(map[string]string{"kind": "command.output", "time": "2026-12-01T00:00:00Z", "text": line.Text})
		items[i] = protocol.TranscriptItem{UUID: it.UUID, Event: out}
	}
	rep.Items = items
	return rep, err
}

// A search row holds a run's items, but a hit is still one item that holds every word: two words in two items of
// one run are no hit, the hits come in the order of their items (newest first, or the history's in a session),
// the limit cuts inside a run, an item whose text another in its run has is found too, and a resumed job writes
// its first run's row again with the items it gains.
func TestSearchRowsPerRunFindItems(t *testing.T) {
	f := newFixture(t)
	path := f.path("p", sessA)
	ix := f.open(textMapper{newStandIn("v1", f.projects)})
	ctx := context.Background()
	var alpha, both, last, same []int // last: the items before each resume, whose words no other item has
	for _, part := range [][2]int{{0, 150}, {150, 40}, {190, 100}} {
		var ls []string
		for i := part[0]; i < part[0]+part[1]; i++ {
			text := fmt.Sprintf("line %d", i)
			if i%5 == 0 {
				text += " alpha"
				alpha = append(alpha, i)
			}
			if i%5 == 1 || i%15 == 0 {
				text += " beta"
			}
			if i%15 == 0 {
				both = append(both, i)
			}
			if i == 149 || i == 189 {
				text += " omega"
				last = append(last, i)
			}
			if i%40 == 7 {
				text = "the same text"
				same = append(same, i)
			}
			ls = append(ls, fmt.Sprintf(`{"uuid":"u-%d","text":%q}`, i, text))
		}
		f.write(path, ls, part[0] > 0)
		require.NoError(t, ix.Ensure(ctx, sessA))

		require.Equal(t, reversed(alpha), positions(t, ix, SearchQuery{Text: "alpha", Limit: 1000}))
		require.Equal(t, reversed(both), positions(t, ix, SearchQuery{Text: "alpha beta", Limit: 1000}), "every word in one item")
		require.Equal(t, reversed(alpha)[:3], positions(t, ix, SearchQuery{Text: "alpha", Limit: 3}))
		require.Equal(t, alpha, positions(t, ix, SearchQuery{Text: "alpha", Session: sessA, Limit: 1000}))
		require.Equal(t, last, positions(t, ix, SearchQuery{Text: "omega", Session: sessA}), "the resumed run's row")
		require.Equal(t, same, positions(t, ix, SearchQuery{Text: "same text", Session: sessA}), "items of the same text")
		require.Equal(t, both[:2], positions(t, ix, SearchQuery{Text: "beta alpha", Session: sessA, Limit: 2}))

		var rows, runs int
		require.NoError(t, ix.st.reader.QueryRow("SELECT COUNT(*) FROM search").Scan(&rows))
		require.NoError(t, ix.st.reader.QueryRow("SELECT COUNT(*) FROM runs").Scan(&runs))
		require.Equal(t, runs, rows, "a search row per run")
	}
}

func positions(t *testing.T, ix *Index, q SearchQuery) []int {
	t.Helper()
	hits, err := ix.Search(context.Background(), q)
	require.NoError(t, err)
	out := []int{}
	for _, h := range hits {
		out = append(out, h.Position)
	}
	return out
}

func reversed(ps []int) []int {
	out := slices.Clone(ps)
	slices.Reverse(out)
	return out
}
