//go:build unix

package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/baton-console/baton/app/index"
	"github.com/rs/zerolog"
)

// searchQueries are what the search bench looks for: a word in every copy of one source, a path fragment, a
// word of every source, and the one word planted in a single session.
var searchQueries = []string{"faster", "notes.txt", "Tool results", plantedWord}

const plantedWord = "xylophone"

// benchSearch (issue 29) chains every corpus transcript into sessions of about 8 MB up to size bytes in all, plus
// one small session holding a word nothing else does, and measures: building the index with `baton search`; the
// index's search tables against the transcripts' bytes (goal ≤ 35 %); a search as the console runs it, in process
// (p95 goal ≤ 100 ms); `baton search` as a whole process against `grep -rlF` over the same files (goal ≤ 1/3);
// `baton usage` over the same (goal ≤ 1 s).
func benchSearch(dir string, size int64) error {
	home := filepath.Join(dir, "search-home")
	config := filepath.Join(home, ".claude")
	projects := filepath.Join(config, "projects")
	total, err := searchCorpus(projects, size)
	if err != nil {
		return err
	}
	data := filepath.Join(home, "data")
	env := append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+config, "BATON_DATA_DIR="+data)
	built, out, err := runBaton(env, "search", plantedWord)
	if err != nil {
		return err
	}
	fmt.Printf("search: corpus %.1f MB; baton search built the index in %s (%.1f MB/s) and found: %s\n",
		mb(total), built.Round(time.Millisecond), mb(total)/built.Seconds(), strings.TrimSpace(string(out)))
	tables, err := searchTableBytes(filepath.Join(data, index.FileName))
	if err != nil {
		return err
	}
	fmt.Printf("search: search tables %.1f MB = %.1f %% of the transcripts (goal ≤ 35 %%)\n", mb(tables), 100*float64(tables)/float64(total))
	if err := searchLatency(data, projects); err != nil {
		return err
	}
	for _, q := range searchQueries {
		if err := searchAgainstGrep(env, projects, q); err != nil {
			return err
		}
	}
	var usage []time.Duration
	for _, by := range []string{"day", "model", "session"} {
		d, _, err := runBaton(env, "usage", "--json", "--by", by)
		if err != nil {
			return err
		}
		usage = append(usage, d)
	}
	fmt.Printf("search: baton usage --by day|model|session over the same: %s, %s, %s (goal ≤ 1 s)\n", ms(usage[0]), ms(usage[1]), ms(usage[2]))
	return nil
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// searchCorpus writes the bench's transcripts and returns their bytes.
func searchCorpus(projects string, size int64) (int64, error) {
	var sources []string
	err := filepath.Walk("sidecar/testdata/corpus/projects", func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(path, ".jsonl") && !strings.Contains(path, "agent-") {
			sources = append(sources, path)
		}
		return nil
	})
	if err != nil || len(sources) == 0 {
		return 0, fmt.Errorf("no transcript in sidecar/testdata/corpus")
	}
	sort.Strings(sources)
	const each = 8 << 20
	var total int64
	for i := 0; total < size; i++ {
		id := fmt.Sprintf("5ea5c0de-%04x-4000-8000-%012x", i, i)
		n, err := chain(sources[i%len(sources)], filepath.Join(projects, fmt.Sprintf("-bench-s%02d", i%len(sources)), id+".jsonl"), id, min(each, size-total))
		if err != nil {
			return 0, err
		}
		total += n
	}
	n, err := plantWord(sources, filepath.Join(projects, "-bench-planted"))
	return total + n, err
}

// plantWord writes one short session in which a corpus word ("kiwi", said before a compaction) is the planted one.
func plantWord(sources []string, folder string) (int64, error) {
	for _, src := range sources {
		data, err := os.ReadFile(src)
		if err != nil || !bytes.Contains(data, []byte("kiwi")) {
			continue
		}
		id := "91a47ed0-0000-4000-8000-000000000001"
		dest := filepath.Join(folder, id+".jsonl")
		if err := smallSession(src, dest, id, 1<<20); err != nil {
			return 0, err
		}
		data, err = os.ReadFile(dest)
		if err != nil {
			return 0, err
		}
		data = bytes.ReplaceAll(data, []byte("kiwi"), []byte(plantedWord))
		return int64(len(data)), os.WriteFile(dest, data, 0o600)
	}
	return 0, fmt.Errorf("no corpus transcript says kiwi")
}

// searchTableBytes is the pages of the search tables (the FTS5 table's shadow tables and the search ids).
func searchTableBytes(path string) (int64, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer func() { _ = db.Close() }()
	var n int64
	err = db.QueryRow("SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name LIKE 'search%' OR name LIKE 'sqlite_autoindex_search%'").Scan(&n)
	return n, err
}

// searchLatency runs each query 20 times in process, as the console's call does, and prints the p95 of all.
func searchLatency(data, projects string) error {
	ix, err := index.Open(context.Background(), index.Options{Dir: data, ProjectsDir: projects, Mapper: newLineMapper(),
		Logger: zerolog.Nop()})
	if err != nil {
		return err
	}
	defer func() { _ = ix.Close() }()
	var all []time.Duration
	for _, q := range searchQueries {
		var ds []time.Duration
		hits := 0
		for range 20 {
			start := time.Now()
			h, err := ix.Search(context.Background(), index.SearchQuery{Text: q})
			if err != nil {
				return err
			}
			ds = append(ds, time.Since(start))
			hits = len(h)
		}
		all = append(all, ds...)
		fmt.Printf("search: in process %q: %d hits, median %s, p95 %s\n", q, hits, ms(median(ds)), ms(p95(ds)))
	}
	fmt.Printf("search: in process, all queries: p95 %s (goal ≤ 100 ms)\n", ms(p95(all)))
	return nil
}

func p95(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)*95+99)/100-1]
}

// searchAgainstGrep times `baton search q` (warm: the index is built) against `grep -rlF q` over the same files,
// five runs each, medians.
func searchAgainstGrep(env []string, projects, q string) error {
	var baton, grep []time.Duration
	for range 5 {
		d, _, err := runBatonExit(env, "search", q)
		if err != nil {
			return err
		}
		baton = append(baton, d)
		start := time.Now()
		cmd := exec.Command("grep", "-rlF", q, projects)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("grep -rlF %s: %w", q, err)
		}
		grep = append(grep, time.Since(start))
	}
	fmt.Printf("search: baton search %q %s; grep -rlF %s: %.2f (goal ≤ 0.33)\n", q, ms(median(baton)), ms(median(grep)),
		float64(median(baton))/float64(median(grep)))
	return nil
}

// runBatonExit is runBaton that takes exit 1 (nothing found) as an answer too.
func runBatonExit(env []string, args ...string) (time.Duration, []byte, error) {
	cmd := exec.Command("build/bin/baton", args...)
	cmd.Env = env
	start := time.Now()
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("baton %s: %w", strings.Join(args, " "), err)
	}
	return time.Since(start), out, nil
}
