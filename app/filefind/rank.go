package filefind

import (
	"container/heap"
	"strings"
)

// Match is one ranked entry.
type Match struct {
	Path  string
	Dir   bool
	score int
}

// Scores of one match: a character typed counts more where a name begins or the previous one matched too, and a
// match inside the last segment (the file's own name) beats one spread over the folders above it.
const (
	scoreChar        = 1
	scoreSegment     = 8
	scoreConsecutive = 5
	scoreInBase      = 12
	scoreBasePrefix  = 20
	scoreExactBase   = 30
)

// Rank returns the best limit entries for query (case ignored, spaces ignored), best first; an empty query gives
// the shallowest entries. It scans the whole listing once.
func Rank(entries []Entry, query string, limit int) []Match {
	return rank(entries, query, limit, true)
}

// rank is Rank over entries sorted shallow first (a whole listing) or not (a partial one).
func rank(entries []Entry, query string, limit int, sorted bool) []Match {
	q := strings.ToLower(strings.ReplaceAll(query, " ", ""))
	if limit <= 0 {
		return nil
	}
	if q == "" && sorted {
		out := make([]Match, 0, min(limit, len(entries)))
		for _, e := range entries[:min(limit, len(entries))] {
			out = append(out, Match{Path: e.Path, Dir: e.Dir})
		}
		return out
	}
	h := &matchHeap{}
	for i := range entries {
		e := &entries[i]
		s, ok := score(e, q)
		if !ok {
			continue
		}
		if h.Len() < limit {
			heap.Push(h, Match{Path: e.Path, Dir: e.Dir, score: s})
		} else if better(Match{Path: e.Path, score: s}, (*h)[0]) {
			(*h)[0] = Match{Path: e.Path, Dir: e.Dir, score: s}
			heap.Fix(h, 0)
		}
	}
	out := make([]Match, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(Match)
	}
	return out
}

// better orders matches: higher score, then the shorter path, then by name.
func better(a, b Match) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if len(a.Path) != len(b.Path) {
		return len(a.Path) < len(b.Path)
	}
	return a.Path < b.Path
}

// score matches q as a subsequence of the entry: in its last segment when it fits there, else over the whole path.
func score(e *Entry, q string) (int, bool) {
	if q == "" { // the shallowest first, as a sorted listing has them
		return -e.depth, true
	}
	if !subsequence(e.lower, q) {
		return 0, false
	}
	base := e.lower[e.base:]
	if s, ok := scoreIn(base, q, e.starts); ok {
		s += scoreInBase
		if strings.HasPrefix(base, q) {
			s += scoreBasePrefix
			if len(base) == len(q) || base[len(q)] == '.' {
				s += scoreExactBase
			}
		}
		return s - e.depth, true
	}
	s, _ := scoreIn(e.lower, q, e.starts)
	return s - e.depth, true
}

// subsequence is the fast first filter: every character of q appears in s, in order.
func subsequence(s, q string) bool {
	j := 0
	for i := 0; i < len(s) && j < len(q); i++ {
		if s[i] == q[j] {
			j++
		}
	}
	return j == len(q)
}

// scoreIn walks s once, matching q greedily but preferring a segment start or a run over a scattered character.
// starts (Entry.starts) says which characters begin a segment anywhere in the path.
func scoreIn(s, q string, starts uint64) (int, bool) {
	total, j, prev := 0, 0, -2
	for i := 0; i < len(s) && j < len(q); i++ {
		if s[i] != q[j] {
			continue
		}
		// A scattered match waits for a better place when one is coming for this same character.
		start := i == 0 || isSeparator(s[i-1])
		if !start && prev != i-1 && starts&startBit(q[j]) != 0 {
			if k := betterPlace(s, i, q[j]); k > i && remainingFits(s[k+1:], q[j+1:]) {
				i = k
				start = true
			}
		}
		total += scoreChar
		if start {
			total += scoreSegment
		}
		if prev == i-1 {
			total += scoreConsecutive
		}
		prev = i
		j++
	}
	return total, j == len(q)
}

// betterPlace is the next position after i where c starts a segment, or -1.
func betterPlace(s string, i int, c byte) int {
	for k := i + 1; k < len(s); k++ {
		if s[k] == c && isSeparator(s[k-1]) {
			return k
		}
	}
	return -1
}

func remainingFits(s, q string) bool { return subsequence(s, q) }

func isSeparator(c byte) bool {
	return c == '/' || c == '_' || c == '-' || c == '.' || c == ' '
}

// matchHeap is a min-heap of the best matches so far: its root is the worst kept.
type matchHeap []Match

func (h matchHeap) Len() int           { return len(h) }
func (h matchHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h matchHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *matchHeap) Push(x any)        { *h = append(*h, x.(Match)) }
func (h *matchHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
