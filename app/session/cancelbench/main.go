//go:build unix

// Command cancelbench measures cancel latency against the real sidecar, SDK and claude CLI with a scripted Messages
// API on loopback: the time from asking to cancel a turn that is mid-stream to its turn.canceled event, over N
// cancels, with a responsive claude and with one stopped by SIGSTOP. It is a benchmark, not a test: run it through
// scripts/bench (goals: responsive p99 < 300 ms; stopped ≤ the budgets + 500 ms).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
)

func main() {
	n := flag.Int("n", 50, "cancels per mode")
	modes := flag.String("modes", "responsive,stopped", "comma-separated: responsive, stopped")
	sidecar := flag.String("sidecar", "", "the sidecar executable (default: build/bin/baton-sidecar)")
	flag.Parse()
	if err := run(*n, strings.Split(*modes, ","), *sidecar); err != nil {
		fmt.Fprintln(os.Stderr, "cancelbench:", err)
		os.Exit(1)
	}
}

func run(n int, modes []string, sidecar string) error {
	root, err := testenv.RepoRoot()
	if err != nil {
		return err
	}
	if sidecar == "" {
		sidecar = filepath.Join(root, "build", "bin", "baton-sidecar")
	}
	claude, err := testenv.ClaudePath()
	if err != nil {
		return err
	}
	hold := make(chan struct{}) // never released: every [hold] reply stays mid-stream until canceled
	api, err := fakeapi.Start(func(req *fakeapi.Request) fakeapi.Reply {
		r := fakeapi.DefaultScript()(req)
		if req.Stream && strings.Contains(req.LastUserText(), "[hold]") {
			r.Hold = hold
		}
		return r
	})
	if err != nil {
		return err
	}
	defer api.Close()
	dir, err := os.MkdirTemp("", "baton-cancelbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	env := append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude)
	m := session.NewManager(session.Config{SidecarPath: sidecar, Env: env, Logger: zerolog.Nop()})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		m.Shutdown(ctx)
	}()
	for _, mode := range modes {
		if mode != "responsive" && mode != "stopped" {
			return fmt.Errorf("unknown mode %q", mode)
		}
		lat, forced, err := measure(m, project, n, mode == "stopped")
		if err != nil {
			return fmt.Errorf("%s: %w", mode, err)
		}
		report(mode, lat, forced)
	}
	return nil
}

func measure(m *session.Manager, project string, n int, stop bool) ([]time.Duration, int, error) {
	ctx := context.Background()
	sub := m.Subscribe(nil)
	defer sub.Close()
	s, err := m.Start(ctx, session.StartOptions{Cwd: project, PermissionMode: activity.PermissionModeDefault})
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = s.Close(ctx) }()
	var lat []time.Duration
	forced := 0
	for i := range n {
		turn, err := s.Exec(ctx, "[hold] bench "+strconv.Itoa(i))
		if err != nil {
			return nil, 0, err
		}
		if _, err := waitFor(sub, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.MessageDelta }); err != nil {
			return nil, 0, err
		}
		if stop {
			pid, err := claudeOf(s.SidecarPID())
			if err != nil {
				return nil, 0, err
			}
			if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
				return nil, 0, err
			}
		}
		began := time.Now()
		done := make(chan error, 1)
		go func() {
			_, err := s.Cancel(ctx, turn, session.DefaultCancelBudgets)
			done <- err
		}()
		end, err := waitFor(sub, func(ev activity.Event) bool { return ev.Turn == turn && ev.Terminal() })
		if err != nil {
			return nil, 0, err
		}
		lat = append(lat, time.Since(began))
		if err := <-done; err != nil {
			return nil, 0, err
		}
		if end.Kind != activity.TurnCanceled {
			return nil, 0, fmt.Errorf("turn %d ended with %s", i, end.Kind)
		}
		if end.Forced != nil && *end.Forced {
			forced++
		}
	}
	return lat, forced, nil
}

func waitFor(sub *session.Subscription, pred func(activity.Event) bool) (activity.Event, error) {
	timeout := time.After(60 * time.Second)
	for {
		select {
		case ev, ok := <-sub.C():
			if !ok {
				return ev, errors.New("the subscription closed")
			}
			if pred(ev) {
				return ev, nil
			}
		case <-timeout:
			return activity.Event{}, errors.New("no event within 60 s")
		}
	}
}

func claudeOf(sidecarPID int) (int, error) {
	for _, pid := range testenv.ChildPIDs(sidecarPID) {
		exe, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe"))
		if strings.Contains(filepath.Base(exe), "claude") {
			return pid, nil
		}
	}
	return 0, fmt.Errorf("the sidecar %d has no claude child", sidecarPID)
}

func report(mode string, lat []time.Duration, forced int) {
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	fmt.Printf("%-10s n=%d forced=%d  p50=%s p90=%s p99=%s max=%s  (to turn.canceled; budgets %s + %s)\n",
		mode, len(lat), forced, pct(0.5).Round(time.Millisecond), pct(0.9).Round(time.Millisecond),
		pct(0.99).Round(time.Millisecond), lat[len(lat)-1].Round(time.Millisecond),
		session.DefaultInterruptBudget, session.DefaultDrainBudget)
}
