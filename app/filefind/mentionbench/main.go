// Command mentionbench measures the composer's @-picker over a 100,000-file git repository (issue 28's goal:
// first results ≤ 100 ms after "@", each further keystroke ≤ 30 ms p95), against `git ls-files` over the same
// repository in the same run as the baseline. Run it with `scripts/bench mentions`.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/baton-console/baton/app/filefind"
)

func main() {
	files := flag.Int("files", 100_000, "files in the generated repository")
	runs := flag.Int("runs", 20, "runs of each measured step")
	flag.Parse()
	if err := run(*files, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "mentionbench:", err)
		os.Exit(1)
	}
}

// queries are typed one character at a time, as a person would after "@".
var queries = []string{"button", "src/mod42/pkg7/file_0077", "readme", "maingo", "zzzz"}

func run(files, runs int) error {
	root, err := os.MkdirTemp("", "baton-mentionbench-")
	if err != nil {
		return fmt.Errorf("make the repository's folder: %w", err)
	}
	defer func() { _ = os.RemoveAll(root) }()
	fmt.Printf("generating a git repository of %d files in %s …\n", files, root)
	if err := generate(root, files); err != nil {
		return err
	}

	baseline, err := timeRuns(runs/4+1, func() error {
		return exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Run()
	})
	if err != nil {
		return fmt.Errorf("git ls-files: %w", err)
	}

	ctx := context.Background()
	cold, err := measureCold(ctx, root, runs/2+1)
	if err != nil {
		return err
	}

	x := filefind.NewIndex(time.Hour) // warm, as the composer leaves it when it shows
	if _, _, err := x.Find(ctx, root, "", 1); err != nil {
		return err
	}
	first, err := timeRuns(runs, func() error { return find(ctx, x, root, "") })
	if err != nil {
		return err
	}
	var keys []time.Duration
	for i := 0; i < runs/4+1; i++ {
		for _, q := range queries {
			for n := 1; n <= len(q); n++ {
				start := time.Now()
				if err := find(ctx, x, root, q[:n]); err != nil {
					return err
				}
				keys = append(keys, time.Since(start))
			}
		}
	}

	fmt.Printf("listed entries (files and folders): %d\n", cold.listed)
	fmt.Printf("baseline  git ls-files (median):               %8.1f ms\n", ms(median(baseline)))
	fmt.Printf("cold      whole first listing + ranking (median): %5.1f ms   (%.2f× git ls-files; the picker refreshes then)\n",
		ms(median(cold.whole)), ratio(median(cold.whole), median(baseline)))
	fmt.Printf("@         first results, cold: no listing yet (p95): %4.1f ms   goal ≤ 100 ms: %s\n",
		ms(pct(cold.first, 95)), verdict(pct(cold.first, 95), 100*time.Millisecond))
	fmt.Printf("          (partial in %d/%d runs, from a median %d entries listed so far; %d answered nothing yet, counted at the whole listing)\n",
		cold.partialRuns, len(cold.first), cold.partialEntries, cold.empty)
	fmt.Printf("keystroke cold, \"%s\" typed on, 100 ms apart (p95): %4.1f ms   goal ≤ 30 ms: %s   (%d keystrokes)\n",
		queries[0], ms(pct(cold.keys, 95)), verdict(pct(cold.keys, 95), 30*time.Millisecond), len(cold.keys))
	fmt.Printf("@         first results, warm listing (p95):   %8.1f ms   goal ≤ 100 ms: %s\n", ms(pct(first, 95)), verdict(pct(first, 95), 100*time.Millisecond))
	fmt.Printf("keystroke rank + JSON, %d keystrokes (p50):   %8.1f ms\n", len(keys), ms(pct(keys, 50)))
	fmt.Printf("keystroke rank + JSON (p95):                   %8.1f ms   goal ≤ 30 ms: %s   (%.2f× git ls-files)\n",
		ms(pct(keys, 95)), verdict(pct(keys, 95), 30*time.Millisecond), ratio(pct(keys, 95), median(baseline)))
	return nil
}

// typingGap is the time between keystrokes of a fast typist (10 keys a second).
const typingGap = 100 * time.Millisecond

// coldFigures are the first "@" typed before the folder was ever listed: the first results as the console
// answers them (partial), and the whole listing the picker then refreshes to. A first answer with nothing in it
// is no result: that run's first results are the whole listing's.
type coldFigures struct {
	first, whole   []time.Duration
	keys           []time.Duration // keystrokes typed on after the first answer, the listing maybe not in yet
	partialEntries int             // median entries the first answers came from
	empty          int             // runs whose first answer had nothing yet
	partialRuns    int             // runs whose first answer came before the whole listing
	listed         int             // entries of the whole listing
}

func measureCold(ctx context.Context, root string, runs int) (coldFigures, error) {
	var c coldFigures
	var partial []int
	for i := 0; i < runs; i++ {
		x := filefind.NewIndex(time.Hour)
		start := time.Now()
		n, l, err := coldFirst(ctx, x, root)
		if err != nil {
			return c, err
		}
		first := time.Since(start)
		partial = append(partial, len(l.Entries))
		if l.Partial {
			c.partialRuns++
		}
		if _, l, err = x.Find(ctx, root, "", 50); err != nil {
			return c, err
		}
		c.whole = append(c.whole, time.Since(start))
		if n == 0 {
			c.empty++
			first = time.Since(start)
		}
		c.first = append(c.first, first)
		c.listed = len(l.Entries)
	}
	sort.Ints(partial)
	c.partialEntries = partial[len(partial)/2]
	keys, err := coldKeys(ctx, root, runs)
	c.keys = keys
	return c, err
}

// coldKeys types queries[0] after a first "@" on a folder never listed, at a fast typist's pace, while the
// listing is being made: each key answers from what is listed by then (the whole listing once it is in).
func coldKeys(ctx context.Context, root string, runs int) ([]time.Duration, error) {
	var keys []time.Duration
	for i := 0; i < runs; i++ {
		x := filefind.NewIndex(time.Hour)
		if _, _, err := coldFirst(ctx, x, root); err != nil {
			return nil, err
		}
		for n := 1; n <= len(queries[0]); n++ {
			time.Sleep(typingGap)
			start := time.Now()
			if err := findSoon(ctx, x, root, queries[0][:n]); err != nil {
				return nil, err
			}
			keys = append(keys, time.Since(start))
		}
	}
	return keys, nil
}

// coldFirst is the console's answer to "@" on a folder not listed yet: how many matches, from what listing.
func coldFirst(ctx context.Context, x *filefind.Index, root string) (int, filefind.Listing, error) {
	ms, l, err := x.FindSoon(ctx, root, "", 50, filefind.PartialAfter)
	if err == nil {
		_, err = json.Marshal(ms)
	}
	return len(ms), l, err
}

// findSoon is find as the console asks while a first listing may still be being made.
func findSoon(ctx context.Context, x *filefind.Index, root, q string) error {
	ms, _, err := x.FindSoon(ctx, root, q, 50, filefind.PartialAfter)
	if err != nil {
		return err
	}
	_, err = json.Marshal(ms)
	return err
}

// find ranks and encodes the answer as the console would send it.
func find(ctx context.Context, x *filefind.Index, root, q string) error {
	ms, _, err := x.Find(ctx, root, q, 50)
	if err != nil {
		return err
	}
	_, err = json.Marshal(ms)
	return err
}

// generate writes files spread over 3 levels of folders, tracks 90% of them and ignores one folder.
func generate(root string, files int) error {
	for i := 0; i < files; i++ {
		p := filepath.Join(root, "src", fmt.Sprintf("mod%d", i%100), fmt.Sprintf("pkg%d", (i/100)%10), fmt.Sprintf("file_%04d.go", i/1000))
		switch i % 500 {
		case 1:
			p = filepath.Join(filepath.Dir(p), fmt.Sprintf("Button%d.tsx", i))
		case 2:
			p = filepath.Join(filepath.Dir(p), fmt.Sprintf("README%d.md", i))
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n"), 0o644); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "src/mod1", "src/mod2"}, {"add", "-A", "src"}} {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %w: %s", args, err, out)
		}
	}
	// A tenth of the files stay untracked: git ls-files lists them with --others.
	for i := 0; i < files/10; i++ {
		p := filepath.Join(root, "extra", fmt.Sprintf("d%d", i%50), fmt.Sprintf("untracked_%d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	return nil
}

func timeRuns(n int, f func() error) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		if err := f(); err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}

func median(ds []time.Duration) time.Duration { return pct(ds, 50) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func verdict(d, goal time.Duration) string {
	if d <= goal {
		return "met"
	}
	return "MISSED"
}
