package auth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/testenv"
)

func TestGateAdmitsOneHolderAtATime(t *testing.T) {
	g := NewGate(time.Minute)
	var inside, overlaps, done atomic.Int32
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			release, err := g.Acquire(context.Background(), "worker")
			if err != nil {
				errs <- err
				return
			}
			if inside.Add(1) != 1 {
				overlaps.Add(1)
			}
			time.Sleep(5 * time.Millisecond) // widen the window an overlap would need
			inside.Add(-1)
			release()
			release() // a second release must not free a slot someone else holds
			done.Add(1)
			errs <- nil
		}()
	}
	for i := 0; i < 8; i++ {
		require.NoError(t, <-errs)
	}
	assert.Zero(t, overlaps.Load())
	assert.EqualValues(t, 8, done.Load())
	assert.Equal(t, "", g.Holder())
}

func TestGateWaitsAreCancellableAndBounded(t *testing.T) {
	g := NewGate(200 * time.Millisecond)
	release, err := g.Acquire(context.Background(), "session start")
	require.NoError(t, err)
	assert.Equal(t, "session start", g.Holder())

	_, err = g.Acquire(context.Background(), "model discovery")
	require.ErrorIs(t, err, ErrGateBusy)
	assert.Contains(t, err.Error(), "model discovery waited")
	assert.Contains(t, err.Error(), "session start", "the error names who holds the gate")

	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() {
		_, err := g.Acquire(ctx, "sign-in check")
		got <- err
	}()
	require.Eventually(t, func() bool { return g.Waiters() == 1 }, 5*time.Second, time.Millisecond)
	cancel()
	err = <-got
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, errors.Is(err, ErrGateBusy))

	release()
	release2, err := g.Acquire(context.Background(), "after")
	require.NoError(t, err, "released gates are free again")
	release2()
}

func TestProcessGateIsShared(t *testing.T) {
	release, err := Acquire(context.Background(), "session start")
	require.NoError(t, err)
	defer release()
	assert.Same(t, ProcessGate(), processGate)
	assert.Equal(t, "session start", ProcessGate().Holder())
}

// overlapProbe wraps the real CLI: it marks its run with a "probing" file and records an overlap when it
// starts or ends while the "held" file (a session start holding the gate) exists.
func overlapProbe(t *testing.T, dir string) string {
	t.Helper()
	return writeScript(t, "claude-probe", `d='`+dir+`'
[ -e "$d/held" ] && echo "probe started while a session start held the gate" >> "$d/overlap"
: > "$d/probing"
echo run >> "$d/runs"
'`+testenv.RequireClaude(t)+`' "$@"
rc=$?
[ -e "$d/held" ] && echo "probe ran into a session start" >> "$d/overlap"
rm -f "$d/probing"
exit $rc
`)
}

// holdAsSessionStart acquires g as a session start, notes an overlap if a probe is running, and marks the hold
// with the "held" file while fn runs. It returns errors rather than failing, so goroutines may call it.
func holdAsSessionStart(g *Gate, dir string, fn func()) error {
	release, err := g.Acquire(context.Background(), "session start")
	if err != nil {
		return err
	}
	defer release()
	if _, err := os.Stat(filepath.Join(dir, "probing")); err == nil {
		if err := appendLine(filepath.Join(dir, "overlap"), "session start acquired while a probe ran"); err != nil {
			return err
		}
	}
	held := filepath.Join(dir, "held")
	if err := os.WriteFile(held, nil, 0o600); err != nil {
		return err
	}
	fn()
	return os.Remove(held)
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readOr(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func TestGateNeverOverlapsASessionStartAndAProbe(t *testing.T) {
	dir := t.TempDir()
	g := NewGate(time.Minute)
	h := startHarness(t, harnessOptions{executable: overlapProbe(t, dir), gate: g})
	require.Equal(t, StatusSignedOut, h.firstProbe(t).Status)

	// A probe asked for while a session start holds the gate waits for it.
	refreshed := make(chan error, 1)
	require.NoError(t, holdAsSessionStart(g, dir, func() {
		go func() { _, err := h.svc.Refresh(context.Background()); refreshed <- err }()
		require.Eventually(t, func() bool { return g.Waiters() == 1 }, 10*time.Second, time.Millisecond)
		select {
		case err := <-refreshed:
			t.Fatalf("the probe finished while the session start held the gate (err %v)", err)
		default:
		}
	}))
	require.NoError(t, <-refreshed)

	// A session start asked for while a probe runs waits for the probe.
	go func() { _, err := h.svc.Refresh(context.Background()); refreshed <- err }()
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(dir, "probing")); return err == nil },
		20*time.Second, time.Millisecond, "the probe started")
	require.NoError(t, holdAsSessionStart(g, dir, func() {}))
	require.NoError(t, <-refreshed)

	// Many of both at once.
	errs := make(chan error, 6)
	for i := 0; i < 3; i++ {
		go func() { _, err := h.svc.Refresh(context.Background()); errs <- err }()
		go func() { errs <- holdAsSessionStart(g, dir, func() { time.Sleep(20 * time.Millisecond) }) }()
	}
	for i := 0; i < 6; i++ {
		require.NoError(t, <-errs)
	}
	assert.Empty(t, readOr(filepath.Join(dir, "overlap")))
	assert.GreaterOrEqual(t, strings.Count(readOr(filepath.Join(dir, "runs")), "run"), 6, "the probes did run")
}

// The overlap detector itself works: with the holder on a different gate it sees the overlap.
func TestOverlapDetectorSeesAnUngatedProbe(t *testing.T) {
	dir := t.TempDir()
	h := startHarness(t, harnessOptions{executable: overlapProbe(t, dir), gate: NewGate(time.Minute)})
	h.firstProbe(t)

	other := NewGate(time.Minute)
	refreshed := make(chan error, 1)
	require.NoError(t, holdAsSessionStart(other, dir, func() {
		go func() { _, err := h.svc.Refresh(context.Background()); refreshed <- err }()
		require.NoError(t, <-refreshed)
	}))
	assert.Contains(t, readOr(filepath.Join(dir, "overlap")), "probe started while a session start held the gate")
}
