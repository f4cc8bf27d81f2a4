package index

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// runLines are transcript lines whose uuids repeat ("dup"), are missing (every seventh) and whose events are
// sometimes large (a run ends early), so pages and lookups cross runs of every kind.
func runLines(first, n int) (ls, uuids []string) {
	for i := first; i < first+n; i++ {
		uuid := fmt.Sprintf("u-%d", i)
		switch {
		case i%7 == 3:
			uuid = ""
		case i%50 == 10:
			uuid = "dup"
		}
		pad := ""
		if i >= 20 && i < 26 {
			pad = strings.Repeat("x", 30<<10)
		}
		ls = append(ls, fmt.Sprintf(`{"uuid":%q,"title":"r","cwd":"/work/r","text":"line %d %s"}`, uuid, i, pad))
		uuids = append(uuids, uuid)
	}
	return ls, uuids
}

// lastOf and parentOf are what the index answered with a row per item: MAX(seq) of a uuid, and the last uuid
// before the first of a message.
func lastOf(uuids []string, at string) (int, bool) {
	for i := len(uuids) - 1; i >= 0; i-- {
		if uuids[i] == at {
			return i, true
		}
	}
	return 0, false
}

func parentOf(uuids []string, message string) (string, bool) {
	for i, u := range uuids {
		if u != message {
			continue
		}
		for k := i - 1; k >= 0; k-- {
			if uuids[k] != "" {
				return uuids[k], true
			}
		}
		return "", true
	}
	return "", false
}

func TestPagesAndLookupsReadAcrossRunsAndResumes(t *testing.T) {
	f := newFixture(t)
	path := f.path("p", sessA)
	ix := f.open(newStandIn("v1", f.projects))
	var all, uuids []string
	for _, part := range [][2]int{{0, 150}, {150, 40}, {190, 100}} {
		ls, us := runLines(part[0], part[1])
		f.write(path, ls, part[0] > 0)
		all, uuids = append(all, ls...), append(uuids, us...)
		checkPages(t, ix, want(all, "v1"))
		checkLookups(t, ix, uuids)
	}

	var runs, maxN, items int
	require.NoError(t, ix.st.reader.QueryRow("SELECT COUNT(*), MAX(n), SUM(n) FROM runs").Scan(&runs, &maxN, &items))
	require.Equal(t, len(all), items)
	require.LessOrEqual(t, maxN, runEvents)
	// 0-21 and 22-24 (their events pass runBytes), then runs of 64 across the chunks' commits and the two resumes
	// (at 150 and 190: the last run is taken up again, not left short), and the rest.
	require.Equal(t, 7, runs)
}

func checkPages(t *testing.T, ix *Index, all []string) {
	t.Helper()
	ctx := context.Background()
	for _, limit := range []int{0, 1, 50, runEvents, runEvents + 1} {
		for before := 0; before <= len(all)+13; before += 13 {
			page, err := ix.History(ctx, sessA, "", &before, limit)
			require.NoError(t, err)
			end := min(before, len(all))
			start := 0
			if limit > 0 {
				start = max(0, end-limit)
			}
			require.Equal(t, len(all), page.Total)
			require.Equal(t, start, page.Start)
			require.Equal(t, all[start:end], texts(t, page.Events), "limit %d before %d", limit, before)
		}
	}
}

func checkLookups(t *testing.T, ix *Index, uuids []string) {
	t.Helper()
	ctx := context.Background()
	for _, at := range []string{"dup", "u-0", "u-64", "u-149", "u-150", "u-200", "u-289", "u-3", "nope"} {
		page, err := ix.History(ctx, sessA, at, nil, 0)
		require.NoError(t, err)
		last, found := lastOf(uuids, at)
		total := len(uuids)
		if found {
			total = last + 1
		}
		require.Equal(t, total, page.Total, "history up to %s", at)
		require.Len(t, page.Events, total)

		parent, found := parentOf(uuids, at)
		gotParent, gotFound, err := ix.MessageParent(ctx, sessA, at)
		require.NoError(t, err)
		require.Equal(t, found, gotFound, "the parent of %s", at)
		require.Equal(t, parent, gotParent, "the parent of %s", at)
	}
}
