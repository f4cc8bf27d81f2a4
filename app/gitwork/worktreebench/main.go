// Command worktreebench measures starting a session's worktree (gitwork.Create: planning the name, the exclude
// line, `git worktree add`, .worktreeinclude) in a repository of -files files against `git worktree add` of a new
// branch alone, in the same run and repository, alternating which goes first. Goal (issue 27): ratio ≤ 1.3.
//
//	go run ./app/gitwork/worktreebench [-files 10000] [-runs 7]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/baton-console/baton/app/gitwork"
)

func main() {
	files := flag.Int("files", 10_000, "files in the repository")
	runs := flag.Int("runs", 7, "worktrees made each way")
	flag.Parse()
	if err := run(*files, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "worktreebench:", err)
		os.Exit(1)
	}
}

func run(files, runs int) error {
	tmp, err := os.MkdirTemp("", "baton-worktreebench-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	if err := isolate(tmp); err != nil {
		return err
	}
	repo := filepath.Join(tmp, "repo")
	if err := makeRepo(repo, files); err != nil {
		return err
	}
	ctx := context.Background()
	var plain, baton []time.Duration
	for i := 0; i < runs; i++ {
		p := func() error {
			start := time.Now()
			err := git(repo, "worktree", "add", "--quiet", "--no-track", "-b", "plain-"+strconv.Itoa(i), filepath.Join(tmp, "plain", strconv.Itoa(i)), "main")
			plain = append(plain, time.Since(start))
			return err
		}
		b := func() error {
			start := time.Now()
			_, err := gitwork.Create(ctx, repo, gitwork.CreateOptions{Prompt: "bench session " + strconv.Itoa(i), Base: "main", Setup: "-"})
			baton = append(baton, time.Since(start))
			return err
		}
		first, second := p, b
		if i%2 == 1 {
			first, second = b, p
		}
		if err := first(); err != nil {
			return err
		}
		if err := second(); err != nil {
			return err
		}
	}
	mp, mb := median(plain), median(baton)
	ratio := float64(mb) / float64(mp)
	verdict := "meets"
	if ratio > 1.3 {
		verdict = "MISSES"
	}
	fmt.Printf("worktree start, %d files, median of %d: git worktree add %v, Baton's gitwork.Create %v; ratio %.2f× (goal ≤ 1.3×: %s)\n",
		files, runs, mp.Round(time.Millisecond/10), mb.Round(time.Millisecond/10), ratio, verdict)
	fmt.Printf(`{"bench":"worktree","files":%d,"runs":%d,"gitMs":%.1f,"batonMs":%.1f,"ratio":%.3f}`+"\n",
		files, runs, ms(mp), ms(mb), ratio)
	return nil
}

// isolate gives git a config of the bench's own, so the machine's hooks and settings do not count.
func isolate(tmp string) error {
	cfg := filepath.Join(tmp, "gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		return err
	}
	for k, v := range map[string]string{"GIT_CONFIG_GLOBAL": cfg, "GIT_CONFIG_NOSYSTEM": "1", "HOME": tmp} {
		if err := os.Setenv(k, v); err != nil {
			return err
		}
	}
	return nil
}

func makeRepo(repo string, files int) error {
	for i := 0; i < files; i++ {
		dir := filepath.Join(repo, "src", "d"+strconv.Itoa(i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		body := fmt.Sprintf("package d\n\n// File %d.\nvar V%d = %d\n", i, i, i)
		if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(i)+".go"), []byte(body), 0o644); err != nil {
			return err
		}
	}
	for _, args := range [][]string{{"init", "--quiet"}, {"add", "-A"}, {"commit", "--quiet", "-m", "files"}} {
		if err := git(repo, args...); err != nil {
			return err
		}
	}
	return nil
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %v: %v: %s", args, err, out)
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
