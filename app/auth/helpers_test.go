package auth

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/testenv"
)

// noAPI is a loopback address nothing listens on: the CLI must never reach a real host from these tests.
const noAPI = "http://127.0.0.1:9"

// fakeKey stands for a real secret; no State, error or log line may ever contain it.
const fakeKey = "sk-ant-api03-FAKE-SECRET-4f1c9b2e7d"

// fakeAccessToken and fakeRefreshToken are the fake claude.ai login's secrets.
const (
	fakeAccessToken  = "sk-ant-oat01-FAKE-ACCESS-8a7b6c5d"
	fakeRefreshToken = "sk-ant-ort01-FAKE-REFRESH-1e2f3a4b"
)

// probeEnv is the CLI's environment for a temp home with no API key: testenv.CLIEnv without ANTHROPIC_API_KEY,
// plus extra KEY=VALUE entries.
func probeEnv(home string, extra ...string) []string {
	return append(envWithout(testenv.CLIEnv(noAPI, home), envAPIKey), extra...)
}

// credentialsJSON is a fake claude.ai login as the CLI stores it (§7 of the SDK facts).
func credentialsJSON(t *testing.T, plan string) []byte {
	t.Helper()
	data, err := json.Marshal(map[string]any{"claudeAiOauth": map[string]any{
		"accessToken": fakeAccessToken, "refreshToken": fakeRefreshToken,
		"expiresAt": time.Now().Add(24 * time.Hour).UnixMilli(),
		"scopes":    []string{"user:inference", "user:profile"}, "subscriptionType": plan,
	}})
	require.NoError(t, err)
	return data
}

// syncBuffer collects log output written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// harness is a started Service over a temp home, with its own gate and a captured log.
type harness struct {
	svc     *Service
	updates <-chan State
	logs    *syncBuffer
	home    string
	cfg     string
}

type harnessOptions struct {
	extraEnv   []string // added to probeEnv(home)
	configDir  string   // "": <home>/.claude (made by testenv.NewHome)
	executable string   // "": the real CLI
	gate       *Gate
	noNotify   bool
	timeout    time.Duration
	debounce   time.Duration // 0: 50 ms
	homeDir    string        // "": a new temp home
}

func startHarness(t *testing.T, ho harnessOptions) *harness {
	t.Helper()
	home := ho.homeDir
	if home == "" {
		home = testenv.NewHome(t)
	}
	cfg := ho.configDir
	if cfg == "" {
		cfg = filepath.Join(home, ".claude")
	} else if !filepath.IsAbs(cfg) {
		cfg = filepath.Join(home, cfg)
	}
	env := probeEnv(home, ho.extraEnv...)
	exe := ho.executable
	if exe == "" {
		exe = testenv.RequireClaude(t)
	}
	gate := ho.gate
	if gate == nil {
		gate = NewGate(time.Minute)
	}
	logs := &syncBuffer{}
	svc, err := NewService(Options{
		Executable:    func(context.Context) (string, error) { return exe, nil },
		Env:           env,
		Home:          home,
		ConfigDir:     cfg,
		Logger:        zerolog.New(logs).Level(zerolog.DebugLevel),
		Debounce:      cmp.Or(ho.debounce, 50*time.Millisecond),
		PollInterval:  100 * time.Millisecond,
		ProbeTimeout:  ho.timeout,
		Gate:          gate,
		disableNotify: ho.noNotify,
	})
	require.NoError(t, err)
	t.Cleanup(svc.Close)
	updates, cancel := svc.Subscribe()
	t.Cleanup(cancel)
	require.NoError(t, svc.Start(context.Background()))
	return &harness{svc: svc, updates: updates, logs: logs, home: home, cfg: cfg}
}

// await returns the first delivered state that satisfies ok, failing after limit. It logs how long it took.
func (h *harness) await(t *testing.T, what string, limit time.Duration, ok func(State) bool) State {
	t.Helper()
	start := time.Now()
	deadline := time.After(limit)
	var last State
	for {
		select {
		case st, open := <-h.updates:
			require.True(t, open, "the service closed its updates while waiting for %s", what)
			last = st
			if ok(st) {
				t.Logf("%s after %s", what, time.Since(start).Round(time.Millisecond))
				return st
			}
		case <-deadline:
			t.Fatalf("no %s within %s; last state: %+v", what, limit, last)
		}
	}
}

func signedOut(s State) bool { return s.Status == StatusSignedOut }

func subscription(plan string) func(State) bool {
	return func(s State) bool { return s.Method == MethodSubscription && s.Plan == plan }
}

// firstProbe waits for the state the start-up probe produces (anything but the "not checked yet" state).
func (h *harness) firstProbe(t *testing.T) State {
	t.Helper()
	return h.await(t, "first sign-in check", 30*time.Second, func(s State) bool { return !s.CheckedAt.IsZero() })
}

// writeAtomic rewrites path the way editors and the CLI do: a new file renamed over the old one.
func writeAtomic(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".tmp-baton-test"
	require.NoError(t, os.WriteFile(tmp, data, 0o600))
	require.NoError(t, os.Rename(tmp, path))
}

// writeScript makes an executable shell script in a temp dir (a stand-in for a broken claude).
func writeScript(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755))
	return p
}

func stateJSON(t *testing.T, s State) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}
