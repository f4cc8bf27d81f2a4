//go:build unix

// Command historybench measures Baton's index of transcripts (issue 26): it is a benchmark, not a test; run it
// through `scripts/bench history`. Every figure has its baseline in the same run:
//
//	store:    the index's own cost, the sidecar's mapping left out (an in-process mapper turns each line into one
//	          event): build MB/s over a ~120 MB transcript chained from a real one; a 500-event page of it (newest,
//	          middle, oldest) against the same page of a 2 MB one (goal ≤ 3×, ≤ 300 ms); the bench's peak RSS.
//	serve:    `baton serve` building the index with the real sidecar: MB/s, host + sidecar RSS (goal ≤ 200 MB),
//	          and 500-event history pages of the ~120 MB session against the 2 MB one (goal ≤ 300 ms, ≤ 3×).
//	sessions: `baton sessions --json` over 1,000 sessions through the index (goal ≤ 300 ms), cold (the median of
//	          9 runs, each creating its index in a fresh data dir; every run printed, wall and CPU) and warm,
//	          interleaved with the same command with no data dir (no index: the sidecar lists them every time).
//	history:  `baton history --json` of the ~120 MB session against `wc -l` + `jq -c .` over the file (goal ≤ 3×).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"time"
)

func main() {
	source := flag.String("source", "", "a real transcript to chain (default: "+defaultSource+", else the largest of sidecar/testdata/corpus)")
	bigMB := flag.Int("big", 120, "the large transcript's size, MB")
	smallMB := flag.Int("small", 2, "the small transcript's size, MB")
	sessions := flag.Int("sessions", 1000, "how many sessions the list bench lists")
	only := flag.String("only", "store,serve,sessions,history", "which parts to run (and search: issue 29's)")
	searchMB := flag.Int("search-mb", 1024, "the search bench's corpus size, MB")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the run here")
	storeMapper := flag.String("store-mapper", "lines", "the store part's mapper: lines (in process, the index's own cost) or sidecar (build/bin/baton-sidecar, so -cpuprofile shows the host's side of a real build) or replay:<index.db> (the events another index holds: the host's cost alone)")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if err := run(*source, int64(*bigMB)<<20, int64(*smallMB)<<20, *sessions, *only, int64(*searchMB)<<20, *storeMapper); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "historybench:", err)
		os.Exit(1)
	}
}

const (
	bigID   = "b19b19b1-0000-4000-8000-000000000120"
	smallID = "5a115a11-0000-4000-8000-000000000002"
)

func run(source string, big, small int64, sessions int, only string, searchSize int64, storeMapper string) error {
	if source == "" {
		var err error
		if source, err = defaultCorpusFile(); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "baton-historybench-")
	if err != nil {
		return err
	}
	if os.Getenv("HISTORYBENCH_KEEP") == "" {
		defer func() { _ = os.RemoveAll(dir) }()
	} else {
		fmt.Printf("kept %s\n", dir)
	}
	projects := filepath.Join(dir, "claude", "projects")
	bigPath := filepath.Join(projects, "-bench-big", bigID+".jsonl")
	smallPath := filepath.Join(projects, "-bench-small", smallID+".jsonl")
	parts := map[string]bool{}
	for _, p := range strings.Split(only, ",") {
		parts[strings.TrimSpace(p)] = true
	}
	if parts["search"] {
		if err := benchSearch(dir, searchSize); err != nil {
			return fmt.Errorf("search: %w", err)
		}
	}
	if !parts["store"] && !parts["serve"] && !parts["sessions"] && !parts["history"] {
		return nil
	}
	fmt.Printf("source %s\n", source)
	// The sessions part lists small sessions of its own: the big transcripts are for the others.
	for _, t := range []struct {
		path, id string
		size     int64
	}{{bigPath, bigID, big}, {smallPath, smallID, small}} {
		if !parts["store"] && !parts["serve"] && !parts["history"] {
			break
		}
		n, err := chain(source, t.path, t.id, t.size)
		if err != nil {
			return err
		}
		fmt.Printf("chained %s: %.1f MB\n", filepath.Base(t.path), float64(n)/(1<<20))
	}
	if parts["store"] {
		if err := benchStore(dir, projects, storeMapper); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	if parts["serve"] {
		if err := benchServe(dir); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}
	if parts["sessions"] {
		if err := benchSessions(dir, source, sessions); err != nil {
			return fmt.Errorf("sessions: %w", err)
		}
	}
	if parts["history"] {
		if err := benchHistory(dir, bigPath); err != nil {
			return fmt.Errorf("history: %w", err)
		}
	}
	return nil
}

// defaultSource is the transcript every recorded figure chains: a v1.0 session of many tool calls (189 k lines,
// 164,567 events at 120 MB). The largest corpus file, the fallback, is a compaction one that maps to few events.
const defaultSource = "sidecar/testdata/corpus/projects/-home-user-v1-0-tools/9fe9895a-845f-4bb3-8120-3f8d0d763e3f.jsonl"

func defaultCorpusFile() (string, error) {
	if _, err := os.Stat(defaultSource); err == nil {
		return defaultSource, nil
	}
	return largestCorpusFile()
}

func largestCorpusFile() (string, error) {
	var best string
	var size int64
	err := filepath.Walk("sidecar/testdata/corpus", func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(path, ".jsonl") && !strings.Contains(path, "agent-") && info.Size() > size {
			best, size = path, info.Size()
		}
		return nil
	})
	if err != nil || best == "" {
		return "", fmt.Errorf("no transcript in sidecar/testdata/corpus (h/corpus); give one with -source")
	}
	return best, nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
