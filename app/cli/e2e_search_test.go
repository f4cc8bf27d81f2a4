package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/stretchr/testify/require"
)

// quietTools answers tool results with "Done." instead of quoting them back, so a word a tool printed is in its
// output only.
func quietTools(req *fakeapi.Request) fakeapi.Reply {
	if len(req.LastToolResults()) > 0 {
		return fakeapi.TextReply("Done.")
	}
	return fakeapi.DefaultScript()(req)
}

type searchHit struct {
	Session  string `json:"session"`
	Position int    `json:"position"`
	Role     string `json:"role"`
	Snippet  string `json:"snippet"`
	Marks    [][2]int
}

func (h *cliHarness) search(args ...string) []searchHit {
	h.t.Helper()
	r := h.run(append([]string{"search", "--json"}, args...)...)
	require.Equal(h.t, 0, r.code, r.stderr)
	var hits []searchHit
	require.NoError(h.t, json.Unmarshal([]byte(r.stdout), &hits), r.stdout)
	return hits
}

// baton search finds a word that only a tool's output held, one only a subagent's tool printed, and one only a
// turn before a compaction said, each in its own session and at its place in the history; and nothing for a word
// no session holds (exit 1, as grep).
func TestSearchFindsToolOutputsSubagentsAndTurnsBeforeACompaction(t *testing.T) {
	h := newScriptedHarness(t, quietTools)
	const tool, agent, compacted = "5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f71", "5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f72", "5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f73"
	exec := func(args ...string) {
		r := h.run(append([]string{"exec", "--approve", "all", "--permission-mode", "default"}, args...)...)
		require.Equal(t, 0, r.code, r.stderr)
	}
	exec("--session-id", tool, "[bash printf 'quo%s' kka]")
	// The marker is escaped in the JSON, so only the subagent's request reads it as one.
	exec("--session-id", agent, `[tool Agent {"description":"look","prompt":"\u005bbash printf 'wom%s' bat]","subagent_type":"general-purpose"}]`)
	exec("--session-id", compacted, "the password is marmalade")
	exec("--resume", compacted, "/compact")
	exec("--resume", compacted, "what now?")

	hits := h.search("quokka")
	require.Len(t, hits, 1, "%+v", hits)
	require.Equal(t, tool, hits[0].Session)
	require.Equal(t, "tool output", hits[0].Role)
	require.Equal(t, "quokka", markedText(hits[0]))

	hits = h.search("WOMBAT") // case does not matter
	require.Len(t, hits, 1, "%+v", hits)
	require.Equal(t, agent, hits[0].Session)
	require.Equal(t, "tool output", hits[0].Role)
	require.Equal(t, "wombat", markedText(hits[0]))
	under := h.historyAt(agent, hits[0].Position)
	require.Equal(t, activity.ToolCompleted, under.Kind)
	require.Contains(t, under.Output, "wombat")

	hits = h.search("armala") // part of a word
	require.NotEmpty(t, hits)
	boundary := h.positionOf(compacted, activity.SessionCompacted)
	prompt := -1
	for _, hit := range hits {
		require.Equal(t, compacted, hit.Session)
		if hit.Role == "user" {
			prompt = hit.Position
		}
	}
	require.GreaterOrEqual(t, prompt, 0, "the prompt is found: %+v", hits)
	require.Less(t, prompt, boundary, "the prompt is in the turn before the compaction")

	r := h.run("search", "quokka")
	require.Equal(t, 0, r.code, r.stderr)
	require.Regexp(t, `^`+tool+`  \d{4}-\d\d-\d\d \d\d:\d\d  tool output  +quokka\n$`, r.stdout)

	r = h.run("search", "--project", t.TempDir(), "quokka")
	require.Equal(t, 1, r.code, r.stdout)
	r = h.run("search", "zyzzyva")
	require.Equal(t, 1, r.code, r.stdout)
	require.Contains(t, r.stderr, "No session holds that.")
	r = h.run("search", "qu")
	require.Equal(t, 2, r.code)
	require.Contains(t, r.stderr, "at least 3 characters")
}

func markedText(h searchHit) string {
	var parts []string
	for _, m := range h.Marks {
		parts = append(parts, strings.ToLower(h.Snippet[m[0]:m[1]]))
	}
	return strings.Join(parts, ",")
}

// historyAt is the event at a position of a session's history (baton history's seq is the position + 1).
func (h *cliHarness) historyAt(session string, position int) activity.Event {
	h.t.Helper()
	r := h.run("history", "--json", session)
	require.Equal(h.t, 0, r.code, r.stderr)
	for _, ev := range parseEvents(h.t, r.stdout) {
		if ev.Seq == uint64(position+1) {
			return ev
		}
	}
	h.t.Fatalf("no event at position %d of %s", position, session)
	return activity.Event{}
}

func (h *cliHarness) positionOf(session string, kind activity.Kind) int {
	h.t.Helper()
	r := h.run("history", "--json", session)
	require.Equal(h.t, 0, r.code, r.stderr)
	for _, ev := range parseEvents(h.t, r.stdout) {
		if ev.Kind == kind {
			return int(ev.Seq) - 1
		}
	}
	h.t.Fatalf("no %s in %s", kind, session)
	return 0
}
