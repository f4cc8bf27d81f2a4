package auth

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/testenv"
)

// These tests pin the watcher's baseline to what the last answered probe saw (issue: a sign-out lost when a
// probe started elsewhere published a state the watcher never read). They use a stand-in for `claude auth
// status` whose speed the test controls, so the order of events, not the machine's speed, decides.

const (
	reportSignedIn  = `{"loggedIn":true,"authMethod":"claude.ai","apiProvider":"firstParty","subscriptionType":"max","planTier":"max_other"}`
	reportSignedOut = `{"loggedIn":false,"authMethod":"none","apiProvider":"firstParty"}`
)

// standInProbe answers from whether cfg/.credentials.json exists when it starts, after waiting delay (a sleep
// argument: "0" or "1").
func standInProbe(t *testing.T, cfg, delay string) string {
	t.Helper()
	return writeScript(t, "claude", `[ -e '`+filepath.Join(cfg, ".credentials.json")+`' ] && r='`+reportSignedIn+`' || r='`+reportSignedOut+`'
sleep `+delay+`
echo "$r"
`)
}

// steppedProbe reads the credentials only when the test allows it, then waits again before it answers: the
// test can change the files while a probe is in the middle of its run.
func steppedProbe(t *testing.T, cfg, steps string) string {
	t.Helper()
	return writeScript(t, "claude", `s='`+steps+`'
n=$(ls "$s" | grep -c '^run-' || true); n=$((n+1)); : > "$s/run-$n"
if [ -e "$s/block-$n" ]; then
  while [ ! -e "$s/read-$n" ]; do sleep 0.01; done
  [ -e '`+filepath.Join(cfg, ".credentials.json")+`' ] && r='`+reportSignedIn+`' || r='`+reportSignedOut+`'
  : > "$s/did-read-$n"
  while [ ! -e "$s/answer-$n" ]; do sleep 0.01; done
else
  [ -e '`+filepath.Join(cfg, ".credentials.json")+`' ] && r='`+reportSignedIn+`' || r='`+reportSignedOut+`'
fi
echo "$r"
`)
}

func waitForFile(t *testing.T, path string) {
	t.Helper()
	require.Eventually(t, func() bool { _, err := os.Stat(path); return err == nil }, 30*time.Second, 5*time.Millisecond,
		"waiting for %s", filepath.Base(path))
}

func touch(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, nil, 0o600))
}

// A probe started elsewhere (Refresh) sees a sign-in, and the sign-out follows within the same debounce
// window: the watcher must not compare with its own stale reading and keep the wrong "signed in".
func TestSignOutAfterAProbeFromElsewhereIsNotLost(t *testing.T) {
	for _, speed := range []struct{ name, delay string }{{"fast probe", "0"}, {"slow probe", "1"}} {
		t.Run(speed.name, func(t *testing.T) {
			home := testenv.NewHome(t)
			cfg := filepath.Join(home, ".claude")
			h := startHarness(t, harnessOptions{executable: standInProbe(t, cfg, speed.delay), debounce: 3 * time.Second,
				homeDir: home})
			require.Equal(t, StatusSignedOut, h.firstProbe(t).Status)

			creds := filepath.Join(cfg, ".credentials.json")
			require.NoError(t, os.WriteFile(creds, credentialsJSON(t, "max"), 0o600))
			st, err := h.svc.Refresh(context.Background())
			require.NoError(t, err)
			require.Equal(t, StatusSignedIn, st.Status, "the refresh saw the credentials")
			require.NoError(t, os.Remove(creds))

			h.await(t, "signed out again", 20*time.Second, signedOut)
		})
	}
}

// A sign-in and sign-out both inside one probe's run: the probe answers "signed in" from a file that is gone
// by the time it ends; the files read the same before and after it, so only the events tell.
func TestAChangeThatComesAndGoesDuringAProbeIsNotLost(t *testing.T) {
	home := testenv.NewHome(t)
	cfg := filepath.Join(home, ".claude")
	steps := t.TempDir()
	touch(t, filepath.Join(steps, "block-2")) // the first probe (start) answers at once; the second is stepped
	h := startHarness(t, harnessOptions{executable: steppedProbe(t, cfg, steps), homeDir: home})
	require.Equal(t, StatusSignedOut, h.firstProbe(t).Status)

	go func() { _, _ = h.svc.Refresh(context.Background()) }()
	waitForFile(t, filepath.Join(steps, "run-2"))
	creds := filepath.Join(cfg, ".credentials.json")
	require.NoError(t, os.WriteFile(creds, credentialsJSON(t, "max"), 0o600))
	touch(t, filepath.Join(steps, "read-2"))
	waitForFile(t, filepath.Join(steps, "did-read-2"))
	require.NoError(t, os.Remove(creds))
	touch(t, filepath.Join(steps, "answer-2"))

	h.await(t, "the stale sign-in published", 20*time.Second, func(s State) bool { return s.Status == StatusSignedIn })
	h.await(t, "signed out after one more probe", 20*time.Second, signedOut)
}

// A change whose probe was skipped because the credential gate stayed busy is probed once the gate frees.
func TestAChangeWhoseProbeWasSkippedIsProbedLater(t *testing.T) {
	home := testenv.NewHome(t)
	cfg := filepath.Join(home, ".claude")
	gate := NewGate(200 * time.Millisecond)
	h := startHarness(t, harnessOptions{executable: standInProbe(t, cfg, "0"), gate: gate, homeDir: home})
	require.Equal(t, StatusSignedOut, h.firstProbe(t).Status)

	release, err := gate.Acquire(context.Background(), "session start")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(cfg, ".credentials.json"), credentialsJSON(t, "max"), 0o600))
	require.Eventually(t, func() bool { return strings.Contains(h.logs.String(), "sign-in check skipped") },
		30*time.Second, 10*time.Millisecond, "the watcher's probe gives up on the busy gate")
	assert.Equal(t, StatusSignedOut, h.svc.State().Status)
	release()

	h.await(t, "the sign-in probed after the gate freed", 20*time.Second, subscription("max"))
}
