package provision

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ensure(t *testing.T, o Options) (Result, []Progress, error) {
	t.Helper()
	var mu sync.Mutex
	var events []Progress
	r, err := New(o).Ensure(context.Background(), func(p Progress) {
		mu.Lock()
		events = append(events, p)
		mu.Unlock()
	})
	return r, events, err
}

func TestCDNPlainExecutable(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)

	r, events, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, SourceCDN, r.Source)
	assert.Equal(t, "claude", r.Artifact)
	assert.False(t, r.AlreadyInstalled)
	assert.Zero(t, s.hits(npmTarballPath), "npm must not be asked when the CDN works")

	// Progress carries bytes, total, rate and source, and ends at the full size.
	var last Progress
	for _, p := range events {
		if p.Phase == PhaseDownloading {
			require.Equal(t, SourceCDN, p.Source)
			require.Equal(t, int64(len(fx.plain)), p.Total)
			require.GreaterOrEqual(t, p.Bytes, last.Bytes, "bytes went backwards")
			last = p
		}
	}
	assert.Equal(t, int64(len(fx.plain)), last.Bytes)
	assert.Positive(t, last.Rate)
	assert.Equal(t, PhaseDone, events[len(events)-1].Phase)
}

func TestCDNZstArtifactIsPreferred(t *testing.T) {
	fx := newFixture(t, testBinarySize, true)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, "claude.zst", r.Artifact)
	assert.Equal(t, 1, s.hits(cdnPath("claude.zst")))
	assert.Zero(t, s.hits(cdnPath("claude")), "the plain executable must not be fetched when the zst artifact works")
}

func TestZstMissingFallsBackToPlainOnSameCDN(t *testing.T) {
	fx := newFixture(t, testBinarySize, true)
	s := newFakeServer(t)
	s.serve(cdnPath("claude"), fx.plain)
	s.serve(npmTarballPath, fx.tarball)
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, SourceCDN, r.Source)
	assert.Equal(t, "claude", r.Artifact)
	require.Len(t, r.Tried, 1)
	assert.ErrorIs(t, r.Tried[0].Err, ErrNotFound)
}

func TestChecksumMismatchIsRejectedAndNPMUsed(t *testing.T) {
	fx := newFixture(t, testBinarySize, true)
	s := newFakeServer(t)
	s.serveFixture(fx)
	s.serve(cdnPath("claude.zst"), fx.zst, fault{corrupt: true})
	s.serve(cdnPath("claude"), fx.plain, fault{corrupt: true})
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, SourceNPM, r.Source)
	require.Len(t, r.Tried, 2)
	for _, a := range r.Tried {
		var ce *ChecksumError
		require.ErrorAs(t, a.Err, &ce)
		assert.NotEqual(t, ce.Expected, ce.Got)
	}
	assert.Equal(t, 1, s.hits(cdnPath("claude")), "a checksum mismatch is not retried at the same URL")
}

func TestChecksumMismatchEverywhereInstallsNothing(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serve(cdnPath("claude"), fx.plain, fault{corrupt: true})
	bad := append([]byte(nil), fx.plain...)
	bad[10] ^= 1
	s.serve(npmTarballPath, tarGz(t, []tarMember{{name: "package/claude", body: bad, mode: 0o755}}))
	o := testOptions(t, s, fx)

	_, _, err := ensure(t, o)
	require.Error(t, err)
	var pe *Error
	require.ErrorAs(t, err, &pe)
	require.Len(t, pe.Attempts, 2)
	msg := err.Error()
	t.Log(msg)
	assert.Contains(t, msg, "expected sha256 "+sha(fx.plain))
	assert.Contains(t, msg, "release CDN")
	assert.Contains(t, msg, "npm registry")
	assert.Contains(t, msg, "BATON_NPM_REGISTRY")
	assert.Contains(t, msg, "CLAUDE_CODE_EXECUTABLE")
	assert.NoFileExists(t, installedPath(o))
	assert.NoFileExists(t, filepath.Join(o.DataDir, "runtime", "claude", pointerName))
	assert.NoDirExists(t, filepath.Dir(installedPath(o)), "the empty version directory must be removed")
}

func TestWrongSizeIsRejected(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	s.serve(cdnPath("claude"), fx.plain, fault{body: fx.plain[:len(fx.plain)-100]})
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, SourceNPM, r.Source)
	var se *SizeError
	require.ErrorAs(t, r.Tried[0].Err, &se)
	assert.Equal(t, int64(len(fx.plain)), se.Expected)
	assert.Equal(t, int64(len(fx.plain)-100), se.Got)
}

func TestTruncatedBodyResumesWithRange(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	s.serve(cdnPath("claude"), fx.plain, fault{truncateAt: 100_000})
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, SourceCDN, r.Source)
	var ranges []string
	for _, req := range s.requests() {
		if req.path == cdnPath("claude") {
			ranges = append(ranges, req.rangeHeader)
		}
	}
	assert.Equal(t, []string{"", "bytes=100000-"}, ranges)
}

func TestDamagedLeftoverPartialIsDownloadedAfresh(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)
	// A partial from a killed run whose bytes are not a prefix of this file.
	writeFile(t, filepath.Join(o.DataDir, "runtime", "claude", testVersion, ".claude"+stagingSuffix), strings.Repeat("x", 1000))

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	var ranges []string
	for _, req := range s.requests() {
		ranges = append(ranges, req.rangeHeader)
	}
	assert.Equal(t, []string{"bytes=1000-", ""}, ranges, "resume first, then start over when the result does not verify")
}

func TestServerIgnoringRangeRestartsFromZero(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	rt := s.serve(cdnPath("claude"), fx.plain, fault{truncateAt: 100_000})
	rt.always = &fault{ignoreRange: true}
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, 2, s.hits(cdnPath("claude")))
}

func TestTruncatedEveryTimeGivesUpAndFallsBack(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	rt := s.serve(cdnPath("claude"), fx.plain)
	rt.always = &fault{truncateAt: 10, ignoreRange: true}
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assert.Equal(t, SourceNPM, r.Source)
	assert.Equal(t, o.Attempts, s.hits(cdnPath("claude")))
	assert.Contains(t, r.Tried[0].Err.Error(), "gave up after 3 attempts")
}

func TestNotFoundFallsBackToNPM(t *testing.T) {
	fx := newFixture(t, testBinarySize, true)
	s := newFakeServer(t)
	s.serve(npmTarballPath, fx.tarball)
	o := testOptions(t, s, fx)

	r, events, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, SourceNPM, r.Source)
	assert.Equal(t, "claude-agent-sdk-linux-x64-"+testSDKVersion+".tgz", r.Artifact)
	for _, p := range events {
		if p.Phase == PhaseDownloading {
			assert.Equal(t, int64(len(fx.tarball)), p.Total, "the tarball's total comes from Content-Length")
		}
	}
	require.Len(t, r.Tried, 2)
	assert.ErrorIs(t, r.Tried[0].Err, ErrNotFound)
	assert.ErrorIs(t, r.Tried[1].Err, ErrNotFound)
	assert.Equal(t, 1, s.hits(cdnPath("claude")), "a 404 is not retried")
}

func TestServerErrorTwiceThenSuccess(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	s.serve(cdnPath("claude"), fx.plain, fault{status: 500}, fault{status: 503, retryAfter: "0"})
	o := testOptions(t, s, fx)

	r, events, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.Equal(t, SourceCDN, r.Source)
	assert.Empty(t, r.Tried)
	assert.Equal(t, 3, s.hits(cdnPath("claude")))
	retries := 0
	for _, p := range events {
		if p.Phase == PhaseRetrying {
			retries++
			assert.Contains(t, p.Message, "HTTP 5")
		}
	}
	assert.Equal(t, 2, retries)
}

func TestRetryableStatuses(t *testing.T) {
	for _, code := range []int{408, 429, 502} {
		fx := newFixture(t, 4096, false)
		s := newFakeServer(t)
		s.serveFixture(fx)
		s.serve(cdnPath("claude"), fx.plain, fault{status: code})
		o := testOptions(t, s, fx)
		r, _, err := ensure(t, o)
		require.NoError(t, err)
		assert.Equal(t, SourceCDN, r.Source, "HTTP %d should be retried", code)
		assert.Equal(t, 2, s.hits(cdnPath("claude")))
	}
}

func TestStalledConnectionIsAbandonedAndResumed(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	s.serve(cdnPath("claude"), fx.plain, fault{stall: true, stallAt: 50_000})
	o := testOptions(t, s, fx)
	o.StallTimeout = 300 * time.Millisecond

	r, events, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	reqs := s.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "bytes=50000-", reqs[1].rangeHeader)
	var stalled bool
	for _, p := range events {
		stalled = stalled || (p.Phase == PhaseRetrying && strings.Contains(p.Message, "stalled"))
	}
	assert.True(t, stalled, "a retry event should name the stall")
}

func TestUnsafeTarballsAreRefused(t *testing.T) {
	fx := newFixture(t, 4096, false)
	cases := map[string][]tarMember{
		"traversal":      {{name: "package/../../evil", body: []byte("x")}, {name: "package/claude", body: fx.plain}},
		"absolute path":  {{name: "/etc/evil", body: []byte("x")}, {name: "package/claude", body: fx.plain}},
		"symlink binary": {{name: "package/claude", typeflag: tar.TypeSymlink, linkname: "/bin/sh"}},
		"hard link":      {{name: "package/claude", body: fx.plain}, {name: "package/other", typeflag: tar.TypeLink, linkname: "package/claude"}},
		"symlink after":  {{name: "package/claude", body: fx.plain}, {name: "package/x", typeflag: tar.TypeSymlink, linkname: "../../x"}},
	}
	for name, members := range cases {
		t.Run(name, func(t *testing.T) {
			s := newFakeServer(t)
			s.serve(npmTarballPath, tarGz(t, members))
			o := testOptions(t, s, fx)
			_, _, err := ensure(t, o)
			var ue *UnsafeArchiveError
			require.ErrorAs(t, err, &ue)
			assert.NoFileExists(t, installedPath(o))
			assertNoStaging(t, o)
			outside := filepath.Join(filepath.Dir(o.DataDir), "evil")
			assert.NoFileExists(t, outside)
		})
	}
}

func TestTarballMemberLargerThanManifestIsRefused(t *testing.T) {
	fx := newFixture(t, 4096, false)
	s := newFakeServer(t)
	s.serve(npmTarballPath, tarGz(t, []tarMember{{name: "package/claude", body: append(append([]byte(nil), fx.plain...), 1, 2, 3)}}))
	o := testOptions(t, s, fx)
	_, _, err := ensure(t, o)
	var se *SizeError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, int64(len(fx.plain)+3), se.Got)
	assert.NoFileExists(t, installedPath(o))
}

func TestOversizedBodyIsStoppedAtTheBound(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serve(cdnPath("claude"), fx.plain, fault{noLength: true, endless: true})
	o := testOptions(t, s, fx)

	_, _, err := ensure(t, o)
	require.ErrorIs(t, err, ErrTooLarge)
	select {
	case <-s.endlessDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the client kept reading an endless body")
	}
	assert.NoFileExists(t, installedPath(o))
	assertNoStaging(t, o)
	assert.Equal(t, 1, s.hits(cdnPath("claude")), "an oversized body is not retried")
}

func TestExtraBytesAfterTheManifestSizeAreRejected(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	s.serve(cdnPath("claude"), fx.plain, fault{noLength: true, extra: 10})
	o := testOptions(t, s, fx)

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assert.Equal(t, SourceNPM, r.Source)
	assert.ErrorIs(t, r.Tried[0].Err, ErrTooLarge)
}

func TestZstDecompressingPastTheBoundIsStopped(t *testing.T) {
	big := make([]byte, 8*testBinarySize)
	bombs := map[string][]byte{
		// A frame that declares its (too large) size: the decoder refuses it up front.
		"declared size": zstdBytes(t, big),
		// A streamed frame with a small window and no declared size: the copy stops at the manifest's size.
		"streamed": zstdStream(t, big),
	}
	for name, bomb := range bombs {
		t.Run(name, func(t *testing.T) {
			fx := newFixture(t, testBinarySize, true)
			fx.manifest.Compressed[testPlatform] = Artifact{Binary: "claude.zst", Checksum: sha(bomb), Size: int64(len(bomb))}
			s := newFakeServer(t)
			s.serve(cdnPath("claude.zst"), bomb)
			s.serve(cdnPath("claude"), fx.plain)
			o := testOptions(t, s, fx)

			r, _, err := ensure(t, o)
			require.NoError(t, err)
			assert.Equal(t, "claude", r.Artifact)
			require.ErrorIs(t, r.Tried[0].Err, ErrTooLarge)
			assertInstalled(t, o, fx, r)
		})
	}
}

func zstdStream(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(&buf, zstd.WithWindowSize(64<<10), zstd.WithSingleSegment(false))
	require.NoError(t, err)
	_, err = io.Copy(enc, bytes.NewReader(b)) // io.Copy hides the size from the encoder
	require.NoError(t, err)
	require.NoError(t, enc.Close())
	return buf.Bytes()
}

func TestAlreadyInstalledMakesNoRequestsAndForceReinstalls(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)
	_, _, err := ensure(t, o)
	require.NoError(t, err)
	before := len(s.requests())

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assert.True(t, r.AlreadyInstalled)
	assert.Equal(t, SourceCDN, r.Source, "the pointer remembers the source")
	assert.Equal(t, before, len(s.requests()))

	// A lost pointer is rewritten without downloading again.
	require.NoError(t, os.Remove(filepath.Join(o.DataDir, "runtime", "claude", pointerName)))
	r, _, err = ensure(t, o)
	require.NoError(t, err)
	assert.True(t, r.AlreadyInstalled)
	assert.Equal(t, "unknown", r.Source)
	assert.Equal(t, before, len(s.requests()))
	ptr, err := Installed(o.DataDir)
	require.NoError(t, err)
	assert.Equal(t, r.Path, ptr.Executable)

	o.Force = true
	r, _, err = ensure(t, o)
	require.NoError(t, err)
	assert.False(t, r.AlreadyInstalled)
	assert.Equal(t, before+1, len(s.requests()))
	assertInstalled(t, o, fx, r)
}

func TestDamagedInstallIsReplaced(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)
	r, _, err := ensure(t, o)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(r.Path, 10)) // wrong size: not ready

	r, _, err = ensure(t, o)
	require.NoError(t, err)
	assert.False(t, r.AlreadyInstalled)
	assertInstalled(t, o, fx, r)
}

func TestConcurrentEnsureInOneProcessDownloadsOnce(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	gate := make(chan struct{})
	s.serve(cdnPath("claude"), fx.plain, fault{gate: gate})
	o := testOptions(t, s, fx)

	const n = 4
	results := make([]Result, n)
	errs := make([]error, n)
	waiting := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = New(o).Ensure(context.Background(), func(p Progress) {
				if p.Phase == PhaseWaiting {
					waiting <- struct{}{}
				}
			})
		}()
	}
	for range n - 1 {
		<-waiting
	}
	close(gate)
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, installedPath(o), results[i].Path)
	}
	assert.Equal(t, 1, s.hits(cdnPath("claude")))
}

func TestOfflineGivesAnActionableError(t *testing.T) {
	fx := newFixture(t, 4096, true)
	s := newFakeServer(t)
	o := testOptions(t, s, fx)
	closed := closedPortURLs(t, 2)
	o.CDNBaseURL = closed[0] + "/cdn"
	o.NPMRegistry = closed[1] + "/npm/"
	o.Attempts = 2

	_, _, err := ensure(t, o)
	require.Error(t, err)
	var ue *UnreachableError
	require.ErrorAs(t, err, &ue)
	msg := err.Error()
	t.Log(msg)
	assert.Equal(t, 2, strings.Count(msg, "cannot connect to"), "the CDN's second file is skipped once its host is unreachable: %s", msg)
	assert.Contains(t, msg, "connection refused")
	assert.Contains(t, msg, "npm registry")
	assert.Contains(t, msg, "retry `baton provision`")
	assertNoStaging(t, o)
}

func TestNoRegistryConfiguredIsReported(t *testing.T) {
	fx := newFixture(t, 4096, false)
	s := newFakeServer(t)
	o := testOptions(t, s, fx)
	o.NPMRegistry = ""
	saved := BuildNPMRegistry
	BuildNPMRegistry = ""
	t.Cleanup(func() { BuildNPMRegistry = saved })

	_, _, err := ensure(t, o)
	require.ErrorIs(t, err, ErrNoRegistry)
	assert.Contains(t, err.Error(), "set BATON_NPM_REGISTRY")
}

func TestNPMAuthTokenFromNPMRC(t *testing.T) {
	fx := newFixture(t, 4096, false)
	s := newFakeServer(t)
	s.serve(npmTarballPath, fx.tarball)
	o := testOptions(t, s, fx)
	o.NPMRegistry = ""
	host := strings.TrimPrefix(s.URL, "http://")
	require.NoError(t, os.WriteFile(filepath.Join(o.HomeDir, ".npmrc"),
		[]byte("registry="+s.URL+"/npm/\n//"+host+"/npm/:_authToken=${TEST_NPM_TOKEN}\n"), 0o600))
	o.Getenv = func(k string) string {
		if k == "TEST_NPM_TOKEN" {
			return "tok-123"
		}
		return ""
	}

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assert.Equal(t, SourceNPM, r.Source)
	var auth string
	for _, req := range s.requests() {
		if req.path == npmTarballPath {
			auth = req.auth
		}
	}
	assert.Equal(t, "Bearer tok-123", auth)
}

func TestOldVersionsAreRemovedUnlessInUse(t *testing.T) {
	fx := newFixture(t, 4096, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)
	root := filepath.Join(o.DataDir, "runtime", "claude")
	for _, v := range []string{"1.0.0", "1.0.1", "1.0.2"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, v), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, v, "claude"), []byte("old"), 0o755))
	}
	release, err := MarkInUse(filepath.Join(root, "1.0.1", "claude")) // a live lease: this process
	require.NoError(t, err)
	defer release()
	// A lease whose process is gone does not keep a directory.
	require.NoError(t, os.WriteFile(filepath.Join(root, "1.0.2", leasePrefix+"999999999"), nil, 0o644))

	r, _, err := ensure(t, o)
	require.NoError(t, err)
	assertInstalled(t, o, fx, r)
	assert.NoDirExists(t, filepath.Join(root, "1.0.0"))
	assert.DirExists(t, filepath.Join(root, "1.0.1"))
	assert.NoDirExists(t, filepath.Join(root, "1.0.2"))

	release()
	assert.NoFileExists(t, filepath.Join(root, "1.0.1", leasePrefix+strconv.Itoa(os.Getpid())))
}

func TestReadOnlyDataDirGivesAClearError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions; TestReadOnlyMountedDataDir covers this case")
	}
	fx := newFixture(t, 4096, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)
	require.NoError(t, os.Chmod(o.DataDir, 0o555))
	t.Cleanup(func() { _ = os.Chmod(o.DataDir, 0o755) })

	_, _, err := ensure(t, o)
	require.ErrorIs(t, err, ErrNotWritable)
	assert.Contains(t, err.Error(), o.DataDir)
	assert.Contains(t, err.Error(), "BATON_DATA_DIR")
	assert.Empty(t, s.requests(), "nothing is downloaded into a directory that cannot hold it")
}

// closedPortURLs returns n distinct loopback URLs nothing listens on.
func closedPortURLs(t *testing.T, n int) []string {
	var urls []string
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ls = append(ls, l)
		urls = append(urls, "http://"+l.Addr().String())
	}
	for _, l := range ls {
		require.NoError(t, l.Close())
	}
	return urls
}

func TestCanceledContextStopsAndCleansUp(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	sent := make(chan struct{})
	s.serve(cdnPath("claude"), fx.plain, fault{stall: true, stallAt: 1000, onSent: func() { close(sent) }})
	o := testOptions(t, s, fx)
	o.StallTimeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-sent; cancel() }()

	_, err := New(o).Ensure(ctx, nil)
	require.True(t, errors.Is(err, context.Canceled), "got %v", err)
	assertNoStaging(t, o)
	assert.Zero(t, s.hits(npmTarballPath), "canceling must not fall back to other sources")
}

// An executable of the right size at the install path is not trusted for its size: its bytes are checked, and
// a damaged one is downloaded again.
func TestSameSizeDamagedInstallIsRepaired(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	o := testOptions(t, s, fx)
	r, _, err := ensure(t, o)
	require.NoError(t, err)
	before := len(s.requests())
	damaged := append([]byte(nil), fx.plain...)
	damaged[len(damaged)-10] ^= 1
	require.NoError(t, os.WriteFile(r.Path, damaged, 0o755))

	r, _, err = ensure(t, o)
	require.NoError(t, err)
	assert.False(t, r.AlreadyInstalled, "a same-size damaged file is not \"already installed\"")
	assert.Equal(t, before+1, len(s.requests()))
	assertInstalled(t, o, fx, r)

	r, _, err = ensure(t, o)
	require.NoError(t, err)
	assert.True(t, r.AlreadyInstalled)
	assert.Equal(t, before+1, len(s.requests()))
}

// A server that trickles a byte at a time feeds the stall watchdog forever; the rate floor gives up on it, names
// it, and the next source installs. The floor's window is short here; the trickle could never meet it.
func TestTricklingSourceIsAbandonedForTheNext(t *testing.T) {
	fx := newFixture(t, testBinarySize, false)
	s := newFakeServer(t)
	s.serveFixture(fx)
	s.serve(cdnPath("claude"), fx.plain).always = &fault{trickle: 10 * time.Millisecond}
	o := testOptions(t, s, fx)
	o.MinRateBytes, o.MinRateWindow = 64<<10, 200*time.Millisecond
	r, events, err := ensure(t, o)
	require.NoError(t, err)
	assert.Equal(t, SourceNPM, r.Source)
	assertInstalled(t, o, fx, r)
	require.Len(t, r.Tried, 1)
	assert.Equal(t, SourceCDN, r.Tried[0].Source)
	var slow *TooSlowError
	require.ErrorAs(t, r.Tried[0].Err, &slow)
	assert.Contains(t, r.Tried[0].Err.Error(), "too slow: fewer than 64 KB arrived in 200ms")
	assert.Equal(t, 1, s.hits(cdnPath("claude")), "a slow source is not retried")
	var fellBack bool
	for _, p := range events {
		fellBack = fellBack || (p.Phase == PhaseFallback && strings.Contains(p.Message, "too slow"))
	}
	assert.True(t, fellBack)
}
