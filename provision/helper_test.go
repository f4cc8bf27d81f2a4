package provision

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Tests that need real processes (a kill mid-download, two installers at once, an environment proxy, a mounted
// file system) re-run this test binary as a child: TestMain sees helperEnv and runs one Ensure instead of tests.

const helperEnv = "BATON_PROVISION_TEST_HELPER"

// helperConfig is what the parent tells a child to do.
type helperConfig struct {
	DataDir      string
	CDN          string
	NPM          string
	Manifest     Manifest
	StallTimeout time.Duration
	Mount        string // "", "ro" (read-only tmpfs) or "full" (tiny tmpfs) over DataDir; Linux only
}

// helperLine is one line a child prints: a progress event, then a result or an error, then the files left in
// the data directory (the parent cannot see a child's private mount).
type helperLine struct {
	Progress *Progress `json:",omitempty"`
	Result   *Result   `json:",omitempty"`
	Error    string    `json:",omitempty"`
	Local    bool      `json:",omitempty"` // the error is a LocalError
	Files    []string  `json:",omitempty"`
}

func TestMain(m *testing.M) {
	if cfg := os.Getenv(helperEnv); cfg != "" {
		os.Exit(runHelper(cfg))
	}
	os.Exit(m.Run())
}

func runHelper(raw string) int {
	var cfg helperConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "helper: bad config:", err)
		return 3
	}
	if cfg.Mount != "" {
		if err := mountDataDir(cfg.DataDir, cfg.Mount); err != nil {
			fmt.Fprintln(os.Stderr, "helper: mount:", err)
			return 4
		}
	}
	out := json.NewEncoder(os.Stdout)
	p := New(Options{
		DataDir: cfg.DataDir, Manifest: &cfg.Manifest, Platform: testPlatform, CDNBaseURL: cfg.CDN, NPMRegistry: cfg.NPM,
		Getenv: func(string) string { return "" }, NPMCommand: "-",
		Attempts: 3, Backoff: 5 * time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		StallTimeout: cfg.StallTimeout, LockPoll: 10 * time.Millisecond, ProgressInterval: 5 * time.Millisecond,
	})
	r, err := p.Ensure(context.Background(), func(pr Progress) { _ = out.Encode(helperLine{Progress: &pr}) })
	code := 0
	if err != nil {
		var le *LocalError
		_ = out.Encode(helperLine{Error: err.Error(), Local: errors.As(err, &le)})
		code = 1
	} else {
		_ = out.Encode(helperLine{Result: &r})
	}
	var files []string
	_ = filepath.WalkDir(cfg.DataDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(cfg.DataDir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	_ = out.Encode(helperLine{Files: files})
	return code
}

// child is a running helper process.
type child struct {
	cmd   *exec.Cmd
	lines chan helperLine
}

// startHelper starts a child; extraEnv entries override the inherited environment. The child is killed at
// cleanup if still running. It returns the error of starting the process (a namespace may be refused).
func startHelper(t *testing.T, cfg helperConfig, extraEnv []string, prepare func(*exec.Cmd)) (*child, error) {
	t.Helper()
	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+string(raw)), extraEnv...)
	cmd.Stderr = &prefixWriter{t: t}
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	if prepare != nil {
		prepare(cmd)
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, lines: make(chan helperLine, 1024)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var l helperLine
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				c.lines <- l
			}
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return c, nil
}

// finish collects a child's remaining output and waits for it to exit.
func (c *child) finish(t *testing.T) (result *Result, errText string, local bool, files []string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				_ = c.cmd.Wait()
				return result, errText, local, files
			}
			if l.Result != nil {
				result = l.Result
			}
			if l.Error != "" {
				errText, local = l.Error, l.Local
			}
			if l.Files != nil {
				files = l.Files
			}
		case <-timeout:
			t.Fatal("helper process did not finish")
		}
	}
}

type prefixWriter struct{ t *testing.T }

func (w *prefixWriter) Write(p []byte) (int, error) {
	w.t.Logf("helper stderr: %s", strings.TrimSpace(string(p)))
	return len(p), nil
}
