package discovery

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// The real sidecar, SDK and claude CLI against the scripted Messages API on loopback, in a temp home.
type rig struct {
	api    *fakeapi.Server
	home   string
	claude string
	env    []string // the CLI's environment, as sessions get it (with the fake's API key)
}

func newRig(t *testing.T) *rig {
	t.Helper()
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("these tests read /proc")
	}
	claude := testenv.RequireClaude(t)
	api, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	t.Cleanup(api.Close)
	home := testenv.NewHome(t)
	return &rig{api: api, home: home, claude: claude, env: testenv.CLIEnv(api.URL(), home)}
}

func (r *rig) hidden(t *testing.T, gate func(context.Context, string) (func(), error)) *HiddenQuery {
	return &HiddenQuery{
		SidecarPath: testenv.SidecarPath(t),
		Env:         append(append([]string(nil), r.env...), "CLAUDE_CODE_EXECUTABLE="+r.claude),
		Dir:         filepath.Join(r.home, "baton-data", "discovery"),
		Gate:        gate,
		Logger:      zerolog.Nop(),
	}
}

// apiRequests counts every HTTP request the scripted API received (none should be proxied elsewhere).
func (r *rig) apiRequests(t *testing.T) int {
	for _, hit := range r.api.Hits() {
		require.False(t, hit.Proxied, "traffic meant for another host: %s", hit.Target)
	}
	return len(r.api.Hits())
}

// processesIn lists the processes whose working directory is dir (Linux /proc): the claude a discovery runs.
func processesIn(dir string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir && testenv.Alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

func discover(t *testing.T, h *HiddenQuery) []activity.ModelEntry {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	models, err := h.Discover(ctx)
	require.NoError(t, err)
	return models
}

func TestHiddenQueryFindsModelsWithoutAnAPIRequest(t *testing.T) {
	r := newRig(t)
	g := auth.NewGate(time.Minute)
	var purposes []string
	h := r.hidden(t, func(ctx context.Context, purpose string) (func(), error) {
		purposes = append(purposes, purpose)
		return g.Acquire(ctx, purpose)
	})
	models := discover(t, h)
	values := make([]string, len(models))
	for i, m := range models {
		values[i] = m.Value
		require.NotEmpty(t, m.DisplayName)
	}
	require.Contains(t, values, "default")
	require.Contains(t, values, "sonnet")
	require.Zero(t, r.apiRequests(t), "discovery runs no turn and asks the API nothing")
	require.DirExists(t, h.Dir, "the discovery folder is created")
	require.Equal(t, []string{"model discovery"}, purposes)
	require.Empty(t, g.Holder(), "the gate was released")
	require.Empty(t, processesIn(h.Dir), "the hidden query's claude is gone")
	entries, err := os.ReadDir(filepath.Join(r.home, ".claude", "projects"))
	if err == nil {
		for _, e := range entries {
			require.NotContains(t, e.Name(), "discovery", "a hidden query leaves no transcript")
		}
	}
}

// While another holder has the gate, discovery starts no claude; it goes on once the gate is free.
func TestHiddenQueryWaitsForTheCredentialGate(t *testing.T) {
	r := newRig(t)
	g := auth.NewGate(time.Minute)
	h := r.hidden(t, g.Acquire)
	release, err := g.Acquire(context.Background(), "session start")
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		_, err := h.Discover(ctx)
		done <- err
	}()
	require.Eventually(t, func() bool { return g.Waiters() == 1 }, 30*time.Second, 5*time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("discovery finished while the gate was held (err %v)", err)
	default:
	}
	require.Empty(t, processesIn(h.Dir), "no claude starts before the gate is free")
	release()
	require.NoError(t, <-done)
}

// claudeLogger wraps the real CLI: each start appends "<unix ns> <working directory>" to a log.
func claudeLogger(t *testing.T, claude, log string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "claude")
	script := "#!/bin/sh\necho \"$(date +%s%N) $(pwd)\" >> '" + log + "'\nexec '" + claude + "' \"$@\"\n"
	require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

type hold struct {
	purpose    string
	start, end int64
}

// Session starts and discoveries share the process's credential gate, and each starts its claude inside its own
// hold: so a discovery's claude never starts while a session start holds the gate, nor the other way round.
func TestGateNeverOverlapsASessionStartAndADiscovery(t *testing.T) {
	r := newRig(t)
	starts := filepath.Join(t.TempDir(), "starts.log")
	r.claude = claudeLogger(t, r.claude, starts)
	g := auth.NewGate(2 * time.Minute)
	var mu sync.Mutex
	var holds []hold
	gate := func(ctx context.Context, purpose string) (func(), error) {
		release, err := g.Acquire(ctx, purpose)
		if err != nil {
			return nil, err
		}
		h := hold{purpose: purpose, start: time.Now().UnixNano()}
		return func() {
			h.end = time.Now().UnixNano()
			mu.Lock()
			holds = append(holds, h)
			mu.Unlock()
			release()
		}, nil
	}
	hidden := r.hidden(t, gate)
	project := testenv.NewProject(t)
	m := session.NewManager(session.Config{SidecarPath: testenv.SidecarPath(t), Gate: gate, Logger: zerolog.Nop(),
		Env: append(append([]string(nil), r.env...), "CLAUDE_CODE_EXECUTABLE="+r.claude)})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		m.Shutdown(ctx)
	})

	errs := make(chan error, 4)
	for i := 0; i < 2; i++ {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			_, err := hidden.Discover(ctx)
			errs <- err
		}()
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			_, err := m.Start(ctx, session.StartOptions{Cwd: project})
			errs <- err
		}()
	}
	for i := 0; i < 4; i++ {
		require.NoError(t, <-errs)
	}

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, holds, 4)
	require.Empty(t, startsOutsideTheirHold(t, starts, holds, hidden.Dir, project))
	require.Len(t, claudeStarts(t, starts), 4, "two discoveries and two sessions each started one claude")
}

// The detector itself works: a discovery that skips the gate starts its claude outside any hold, and is seen.
func TestOverlapDetectorSeesAnUngatedDiscovery(t *testing.T) {
	r := newRig(t)
	starts := filepath.Join(t.TempDir(), "starts.log")
	r.claude = claudeLogger(t, r.claude, starts)
	hidden := r.hidden(t, func(context.Context, string) (func(), error) { return func() {}, nil })
	discover(t, hidden)
	bad := startsOutsideTheirHold(t, starts, nil, hidden.Dir, "")
	require.Len(t, bad, 1)
	require.Contains(t, bad[0], "model discovery")
}

func claudeStarts(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// startsOutsideTheirHold checks each logged claude start: one in the discovery folder must lie inside a "model
// discovery" hold and nothing else, any other inside a "session start" hold and nothing else.
func startsOutsideTheirHold(t *testing.T, log string, holds []hold, discoveryDir, project string) []string {
	t.Helper()
	var bad []string
	for _, line := range claudeStarts(t, log) {
		at, dir, ok := strings.Cut(line, " ")
		require.True(t, ok, line)
		ns, err := strconv.ParseInt(at, 10, 64)
		require.NoError(t, err)
		want := "session start"
		if dir == discoveryDir {
			want = "model discovery"
		} else {
			require.Equal(t, project, dir)
		}
		var inside []string
		for _, h := range holds {
			if ns >= h.start && ns <= h.end {
				inside = append(inside, h.purpose)
			}
		}
		if len(inside) != 1 || inside[0] != want {
			bad = append(bad, fmt.Sprintf("a claude for %s started in %s inside holds %v", want, dir, inside))
		}
	}
	return bad
}
