//go:build unix

// Command terminalbench measures the console's terminal through `baton serve` (issue 30's goals): keystroke →
// echo p95 over the authenticated WebSocket (goal ≤ 30 ms), and `yes | head -c 50M` in a session's terminal until
// its end marker reaches the client, against the same command in a plain PTY pumped to /dev/null, measured in the
// same run (goal ≤ 2×). The client is the panel's transport; xterm.js's drawing in the page is not in the figure.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/creack/pty"
)

func main() {
	keys := flag.Int("keys", 200, "keystrokes in the echo figure")
	mb := flag.Int("mb", 50, "megabytes `yes` prints in the throughput figure")
	flag.Parse()
	if err := run(*keys, *mb); err != nil {
		fmt.Fprintln(os.Stderr, "terminalbench:", err)
		os.Exit(1)
	}
}

func run(keys, mb int) error {
	root, err := testenv.RepoRoot()
	if err != nil {
		return err
	}
	baton := filepath.Join(root, "build", "bin", "baton")
	sidecar := filepath.Join(root, "build", "bin", "baton-sidecar")
	for _, p := range []string{baton, sidecar} {
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("%s is missing: run scripts/build first", p)
		}
	}
	claude, err := testenv.ClaudePath()
	if err != nil {
		return err
	}
	api, err := fakeapi.Start(fakeapi.DefaultScript())
	if err != nil {
		return err
	}
	defer api.Close()
	dir, err := os.MkdirTemp("", "baton-terminalbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{filepath.Join(home, ".claude"), project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	// The login shell: /bin/sh without the machine's profile (Baton adds -l; this drops it).
	shell := filepath.Join(dir, "login-shell")
	if err := os.WriteFile(shell, []byte("#!/bin/sh\nunset ENV\nPS1='$ ' exec /bin/sh\n"), 0o755); err != nil {
		return err
	}
	env := append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude, "BATON_SIDECAR="+sidecar,
		"BATON_DATA_DIR="+filepath.Join(home, "baton-data"), "SHELL="+shell)
	srv, err := serve(baton, home, env)
	if err != nil {
		return err
	}
	defer srv.stop()
	c, err := dial(srv)
	if err != nil {
		return err
	}
	defer c.close()
	term, err := c.openTerminal(project)
	if err != nil {
		return err
	}

	lat, err := c.echoLatencies(term, keys)
	if err != nil {
		return err
	}
	slices.Sort(lat)
	p50, p95 := lat[len(lat)/2], lat[len(lat)*95/100]
	fmt.Printf("keystroke → echo through baton serve: p50 %s, p95 %s over %d keys (goal p95 ≤ 30 ms)\n",
		ms(p50), ms(p95), len(lat))

	cmd := fmt.Sprintf("yes | head -c %d", mb<<20)
	base, err := plainPump(cmd)
	if err != nil {
		return err
	}
	panel, got, err := c.burst(term, cmd)
	if err != nil {
		return err
	}
	fmt.Printf("%s: plain PTY pump to /dev/null %s; through the panel's transport %s (%.2f×, goal ≤ 2×); "+
		"%.1f MB of PTY output (\\n as \\r\\n) reached the client, %d gaps (dropped for a redraw from the scrollback)\n",
		cmd, ms(base), ms(panel), float64(panel)/float64(base), float64(got)/(1<<20), c.gaps)
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// plainPump is the baseline: the command in a fresh PTY, its output copied to /dev/null until the PTY closes.
func plainPump(command string) (time.Duration, error) {
	start := time.Now()
	cmd := exec.Command("/bin/sh", "-c", command)
	f, err := pty.Start(cmd)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := io.Copy(io.Discard, f); err != nil && !errors.Is(err, os.ErrClosed) && !isEIO(err) {
		return 0, err
	}
	_ = cmd.Wait()
	return time.Since(start), nil
}
