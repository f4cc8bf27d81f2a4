package provision

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func helperFor(s *fakeServer, fx fixture, dataDir string) helperConfig {
	return helperConfig{DataDir: dataDir, CDN: s.URL + "/cdn", NPM: s.URL + "/npm/", Manifest: fx.manifest, StallTimeout: time.Minute}
}

func TestKilledMidDownloadThenRunAgainResumes(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	sent := make(chan struct{})
	const half = testBinarySize / 2
	s.serve(cdnPath("claude"), fx.plain, fault{stall: true, stallAt: half, onSent: func() { close(sent) }})
	o := testOptions(t, s, fx)

	c, err := startHelper(t, helperFor(s, fx, o.DataDir), nil, nil)
	require.NoError(t, err)
	select {
	case <-sent:
	case <-time.After(20 * time.Second):
		t.Fatal("the child never started downloading")
	}
	staging := filepath.Join(o.DataDir, "runtime", "claude", testVersion, ".claude"+stagingSuffix)
	require.Eventually(t, func() bool {
		info, err := os.Stat(staging)
		return err == nil && info.Size() == half
	}, 10*time.Second, 5*time.Millisecond, "the child should have written half the file")
	require.NoError(t, c.cmd.Process.Kill())
	_ = c.cmd.Wait()
	require.FileExists(t, staging, "a killed run leaves its partial download")

	// The dead child held the install lock; the next run must get it and resume where the child stopped.
	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	reqs := s.requests()
	last := reqs[len(reqs)-1]
	assert.Equal(t, cdnPath("claude"), last.path)
	assert.Equal(t, "bytes=131072-", last.rangeHeader)
}

func TestTwoProcessesAtOnceInstallOnce(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	gate := make(chan struct{})
	s.serve(cdnPath("claude"), fx.plain, fault{gate: gate})
	dataDir := t.TempDir()
	cfg := helperFor(s, fx, dataDir)

	a, err := startHelper(t, cfg, nil, nil)
	require.NoError(t, err)
	b, err := startHelper(t, cfg, nil, nil)
	require.NoError(t, err)
	// Hold the first download until the other process is seen waiting on the lock, so the runs truly overlap.
	deadline := time.After(20 * time.Second)
	for waiting := false; !waiting; {
		select {
		case l := <-a.lines:
			waiting = l.Progress != nil && l.Progress.Phase == PhaseWaiting
		case l := <-b.lines:
			waiting = l.Progress != nil && l.Progress.Phase == PhaseWaiting
		case <-deadline:
			t.Fatal("neither process waited for the other")
		}
	}
	close(gate)
	ra, ea, _, _ := a.finish(t)
	rb, eb, _, _ := b.finish(t)
	require.Empty(t, ea)
	require.Empty(t, eb)
	require.NotNil(t, ra)
	require.NotNil(t, rb)
	assert.Equal(t, ra.Path, rb.Path)
	assert.Equal(t, filepath.Join(dataDir, "runtime", "claude", testVersion, "claude"), ra.Path)
	assert.NotEqual(t, ra.AlreadyInstalled, rb.AlreadyInstalled, "exactly one process installs")
	assert.Equal(t, 1, s.hits(cdnPath("claude")))
	got, err := os.ReadFile(ra.Path)
	require.NoError(t, err)
	assert.Equal(t, sha(fx.plain), sha(got))
}

func TestEnvironmentProxyIsHonoured(t *testing.T) {
	fx := newFixture(t, 4096, false)
	s := newFakeServer(t) // also acts as the proxy: it answers absolute-form requests by path
	s.serveFixture(fx)
	cfg := helperFor(s, fx, t.TempDir())
	cfg.CDN = "http://cdn.invalid/cdn" // never resolved: only the proxy can reach it
	cfg.NPM = "http://cdn.invalid/npm/"

	c, err := startHelper(t, cfg, []string{"HTTP_PROXY=" + s.URL, "http_proxy=" + s.URL, "NO_PROXY=", "no_proxy=", "REQUEST_METHOD="}, nil)
	require.NoError(t, err)
	r, errText, _, _ := c.finish(t)
	require.Empty(t, errText)
	require.NotNil(t, r)
	assert.Equal(t, SourceCDN, r.Source)
	reqs := s.requests()
	require.NotEmpty(t, reqs)
	assert.Equal(t, "cdn.invalid", reqs[0].host)
}

func TestReadOnlyMountedDataDir(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	cfg := helperFor(s, fx, t.TempDir())
	cfg.Mount = "ro"
	errText, local, files := runMounted(t, cfg)
	assert.True(t, local, "a read-only data directory is a local fault")
	assert.Contains(t, errText, "cannot write")
	assert.Contains(t, errText, "read-only file system")
	assert.Contains(t, errText, "BATON_DATA_DIR")
	assert.Empty(t, files)
	assert.Empty(t, s.requests())
}

func TestFullDataDir(t *testing.T) {
	fx := newFixture(t, testBinarySize, false) // 256 KiB into a 64 KiB file system
	s := newFakeServer(t)
	s.serveFixture(fx)
	cfg := helperFor(s, fx, t.TempDir())
	cfg.Mount = "full"
	errText, local, files := runMounted(t, cfg)
	assert.True(t, local, "a full disk is a local fault")
	assert.Contains(t, errText, "not enough disk space")
	assert.Contains(t, errText, "free disk space")
	for _, f := range files {
		assert.False(t, strings.HasSuffix(f, stagingSuffix) || strings.HasSuffix(f, "/claude"), "left behind: %s", f)
	}
	assert.Zero(t, s.hits(npmTarballPath), "another source cannot fix a full disk")
}

// runMounted runs a helper over a tmpfs in private namespaces, skipping where the OS refuses them.
func runMounted(t *testing.T, cfg helperConfig) (errText string, local bool, files []string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("mounting a test file system needs Linux namespaces")
	}
	c, err := startHelper(t, cfg, nil, inNamespace)
	if err != nil {
		t.Skipf("user namespaces are not available here: %v", err)
	}
	r, errText, local, files := c.finish(t)
	if c.cmd.ProcessState.ExitCode() == 4 {
		t.Skip("this system refuses tmpfs mounts in a user namespace")
	}
	require.Nil(t, r, "the install should have failed")
	t.Logf("the child reported:\n%s", errText)
	return errText, local, files
}
