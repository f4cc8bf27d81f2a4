package provision

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"
)

// Test fixtures: a small fake executable, a manifest that pins it, and a loopback server that plays the release
// CDN and an npm registry with injectable faults.

const (
	testVersion    = "9.9.9"
	testSDKVersion = "0.9.9"
	testPlatform   = "linux-x64"
	testBinarySize = 256 << 10
)

type fixture struct {
	plain    []byte
	zst      []byte
	tarball  []byte
	manifest Manifest
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// newFixture builds a fake executable of the given size; withZst adds a zstd artifact to the manifest.
func newFixture(t testing.TB, size int, withZst bool) fixture {
	t.Helper()
	rng := rand.New(rand.NewChaCha8([32]byte{7}))
	plain := make([]byte, size)
	for i := range plain {
		// Half-random bytes: compressible enough for zstd to matter, random enough to catch corruption.
		plain[i] = byte(rng.IntN(16))
	}
	copy(plain, "#!/bin/sh\necho '"+testVersion+" (Claude Code)'\nexit 0\n")
	fx := fixture{plain: plain}
	fx.zst = zstdBytes(t, plain)
	fx.tarball = tarGz(t, []tarMember{
		{name: "package/package.json", body: []byte(`{"name":"@anthropic-ai/claude-agent-sdk-linux-x64","version":"` + testSDKVersion + `"}`)},
		{name: "package/claude", body: plain, mode: 0o755},
		{name: "package/README.md", body: []byte("readme")},
	})
	fx.manifest = Manifest{
		Version:    testVersion,
		SDKVersion: testSDKVersion,
		Platforms:  map[string]Artifact{testPlatform: {Binary: "claude", Checksum: sha(plain), Size: int64(len(plain))}},
		Compressed: map[string]Artifact{},
	}
	if withZst {
		fx.manifest.Compressed[testPlatform] = Artifact{Binary: "claude.zst", Checksum: sha(fx.zst), Size: int64(len(fx.zst))}
	}
	require.NoError(t, fx.manifest.Validate())
	return fx
}

func zstdBytes(t testing.TB, b []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil)
	require.NoError(t, err)
	defer enc.Close()
	return enc.EncodeAll(b, nil)
}

type tarMember struct {
	name     string
	body     []byte
	mode     int64
	typeflag byte
	linkname string
}

func tarGz(t testing.TB, members []tarMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, m := range members {
		hdr := &tar.Header{Name: m.name, Mode: m.mode, Size: int64(len(m.body)), Typeflag: m.typeflag, Linkname: m.linkname, ModTime: time.Unix(0, 0)}
		if hdr.Typeflag == 0 {
			hdr.Typeflag = tar.TypeReg
		}
		if hdr.Mode == 0 {
			hdr.Mode = 0o644
		}
		if hdr.Typeflag != tar.TypeReg {
			hdr.Size = 0
		}
		require.NoError(t, tw.WriteHeader(hdr))
		if hdr.Typeflag == tar.TypeReg {
			_, err := tw.Write(m.body)
			require.NoError(t, err)
		}
	}
	require.NoError(t, tw.Close())
	require.NoError(t, gz.Close())
	return buf.Bytes()
}

// Routes of the fake server.
func cdnPath(name string) string { return "/cdn/" + testVersion + "/" + testPlatform + "/" + name }

const npmTarballPath = "/npm/@anthropic-ai/claude-agent-sdk-linux-x64/-/claude-agent-sdk-linux-x64-" + testSDKVersion + ".tgz"

// fault changes how one request is answered.
type fault struct {
	status      int           // answer with this status and no body
	retryAfter  string        // Retry-After header with status
	corrupt     bool          // flip one byte of the body
	body        []byte        // serve these bytes instead of the route's
	truncateAt  int           // send this many bytes of a full-length response, then drop the connection
	stallAt     int           // with stall: send this many bytes, then go silent until the client leaves
	stall       bool          //
	noLength    bool          // no Content-Length (chunked)
	extra       int           // append this many bytes beyond the body (use with noLength)
	endless     bool          // stream until the client hangs up (use with noLength)
	ignoreRange bool          // answer 200 with the whole body even to a Range request
	trickle     time.Duration // send one byte per this interval until the client leaves
	gate        chan struct{} // wait for this to close before answering
	onSent      func()        // called after the bytes before a stall are flushed
}

type route struct {
	body   []byte
	faults []fault // consumed one per request
	always *fault  // applies once faults are used up
}

type request struct {
	path, rangeHeader, host, auth string
}

type fakeServer struct {
	*httptest.Server
	mu      sync.Mutex
	routes  map[string]*route
	log     []request
	release chan struct{}
	// endlessWritten counts bytes an endless response wrote; endlessDone closes when the client hung up.
	endlessWritten atomic.Int64
	endlessDone    chan struct{}
}

func newFakeServer(t testing.TB) *fakeServer {
	s := &fakeServer{routes: map[string]*route{}, release: make(chan struct{}), endlessDone: make(chan struct{})}
	s.Server = httptest.NewServer(s)
	t.Cleanup(func() {
		close(s.release)
		s.CloseClientConnections()
		s.Close()
	})
	return s
}

func (s *fakeServer) serve(path string, body []byte, faults ...fault) *route {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &route{body: body, faults: faults}
	s.routes[path] = r
	return r
}

// serveFixture serves every artifact of fx at its CDN and npm paths.
func (s *fakeServer) serveFixture(fx fixture) {
	s.serve(cdnPath("claude"), fx.plain)
	if _, ok := fx.manifest.Compressed[testPlatform]; ok {
		s.serve(cdnPath("claude.zst"), fx.zst)
	}
	s.serve(npmTarballPath, fx.tarball)
}

func (s *fakeServer) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]request(nil), s.log...)
}

// hits counts requests for a path, served or not.
func (s *fakeServer) hits(path string) int {
	n := 0
	for _, r := range s.requests() {
		if r.path == path {
			n++
		}
	}
	return n
}

func (s *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.log = append(s.log, request{path: r.URL.Path, rangeHeader: r.Header.Get("Range"), host: r.Host, auth: r.Header.Get("Authorization")})
	rt := s.routes[r.URL.Path]
	var f fault
	if rt != nil {
		if len(rt.faults) > 0 {
			f, rt.faults = rt.faults[0], rt.faults[1:]
		} else if rt.always != nil {
			f = *rt.always
		}
	}
	s.mu.Unlock()
	if rt == nil {
		http.NotFound(w, r)
		return
	}
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-r.Context().Done():
			return
		case <-s.release:
			return
		}
	}
	if f.status != 0 {
		if f.retryAfter != "" {
			w.Header().Set("Retry-After", f.retryAfter)
		}
		w.WriteHeader(f.status)
		return
	}
	body := rt.body
	if f.body != nil {
		body = f.body
	}
	if f.corrupt {
		body = append([]byte(nil), body...)
		body[len(body)/2] ^= 0xff
	}
	status, start := http.StatusOK, 0
	if rng := r.Header.Get("Range"); rng != "" && !f.ignoreRange {
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rng, "bytes="), "-"))
		if err != nil || n >= len(body) {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes */%d", len(body)))
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
			return
		}
		start, status = n, http.StatusPartialContent
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", n, len(body)-1, len(body)))
	}
	part := body[start:]
	w.Header().Set("Accept-Ranges", "bytes")
	if !f.noLength {
		w.Header().Set("Content-Length", strconv.Itoa(len(part)))
	}
	w.WriteHeader(status)
	flusher := w.(http.Flusher)
	switch {
	case f.truncateAt > 0:
		_, _ = w.Write(part[:f.truncateAt])
		flusher.Flush()
		// Returning with fewer bytes than Content-Length makes the server drop the connection.
	case f.stall:
		_, _ = w.Write(part[:f.stallAt])
		flusher.Flush()
		if f.onSent != nil {
			f.onSent()
		}
		select {
		case <-r.Context().Done():
		case <-s.release:
		}
	case f.trickle > 0:
		for i := 0; i < len(part); i++ {
			if _, err := w.Write(part[i : i+1]); err != nil {
				return
			}
			flusher.Flush()
			select {
			case <-r.Context().Done():
				return
			case <-s.release:
				return
			case <-time.After(f.trickle):
			}
		}
	case f.endless:
		chunk := make([]byte, 64<<10)
		for {
			n, err := w.Write(chunk)
			s.endlessWritten.Add(int64(n))
			if err != nil {
				close(s.endlessDone)
				return
			}
			flusher.Flush()
		}
	default:
		_, _ = w.Write(part)
		if f.extra > 0 {
			_, _ = w.Write(make([]byte, f.extra))
		}
	}
}

// testOptions points a Provisioner at the fake server with short timings and an empty environment.
func testOptions(t testing.TB, s *fakeServer, fx fixture) Options {
	m := fx.manifest
	return Options{
		DataDir:          t.TempDir(),
		Manifest:         &m,
		Platform:         testPlatform,
		CDNBaseURL:       s.URL + "/cdn",
		NPMRegistry:      s.URL + "/npm/",
		Getenv:           func(string) string { return "" },
		HomeDir:          t.TempDir(),
		NPMCommand:       "-",
		Attempts:         3,
		Backoff:          5 * time.Millisecond,
		MaxBackoff:       20 * time.Millisecond,
		StallTimeout:     2 * time.Second,
		ConnectTimeout:   2 * time.Second,
		LockPoll:         10 * time.Millisecond,
		ProgressInterval: time.Millisecond,
	}
}

// installedPath is where a test install lands.
func installedPath(o Options) string {
	return filepath.Join(o.DataDir, "runtime", "claude", testVersion, "claude")
}

// assertNoStaging fails when a run left staging files (or anything but the executable and leases) behind.
func assertNoStaging(t testing.TB, o Options) {
	t.Helper()
	dir := filepath.Join(o.DataDir, "runtime", "claude", testVersion)
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return
	}
	require.NoError(t, err)
	for _, e := range entries {
		require.Equal(t, "claude", e.Name(), "unexpected file left in %s", dir)
	}
}

// assertInstalled checks the executable's bytes, its mode and the pointer file.
func assertInstalled(t testing.TB, o Options, fx fixture, r Result) {
	t.Helper()
	require.Equal(t, installedPath(o), r.Path)
	got, err := os.ReadFile(r.Path)
	require.NoError(t, err)
	require.True(t, bytes.Equal(fx.plain, got), "installed bytes differ from the fixture")
	info, err := os.Stat(r.Path)
	require.NoError(t, err)
	require.NotZero(t, info.Mode().Perm()&0o100, "installed file is not executable")
	require.Equal(t, sha(fx.plain), r.SHA256)
	ptr, err := readPointer(filepath.Join(o.DataDir, "runtime", "claude", pointerName))
	require.NoError(t, err)
	require.Equal(t, testVersion, ptr.Version)
	require.Equal(t, r.Path, ptr.Executable)
	require.Equal(t, sha(fx.plain), ptr.SHA256)
	assertNoStaging(t, o)
}
