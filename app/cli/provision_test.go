package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/provision"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fake claude (a shell script, so doctor can ask its version) pinned by a test manifest and served by a
// loopback "CDN".

const (
	cliTestVersion  = "7.7.7"
	cliTestPlatform = "linux-x64"
)

type cliFixture struct {
	binary   []byte
	manifest provision.Manifest
	server   *httptest.Server
	dataDir  string
}

func newCLIFixture(t *testing.T) *cliFixture {
	t.Helper()
	bin := []byte("#!/bin/sh\necho '" + cliTestVersion + " (Claude Code)'\n" + strings.Repeat("#", 200_000) + "\n")
	sum := sha256.Sum256(bin)
	f := &cliFixture{binary: bin, dataDir: t.TempDir()}
	f.manifest = provision.Manifest{
		Version: cliTestVersion, SDKVersion: "0.7.7",
		Platforms: map[string]provision.Artifact{cliTestPlatform: {Binary: "claude", Checksum: hex.EncodeToString(sum[:]), Size: int64(len(bin))}},
	}
	require.NoError(t, f.manifest.Validate())
	f.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/cdn/"+cliTestVersion+"/"+cliTestPlatform+"/claude" {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "claude", time.Time{}, bytes.NewReader(bin))
	}))
	t.Cleanup(f.server.Close)
	provisionTestHook = func(o *provision.Options) {
		m := f.manifest
		o.DataDir, o.Manifest, o.Platform = f.dataDir, &m, cliTestPlatform
		o.CDNBaseURL, o.NPMRegistry = f.server.URL+"/cdn", closedURL(t)+"/npm/"
		o.Getenv, o.NPMCommand = func(string) string { return "" }, "-"
		o.Attempts, o.Backoff, o.MaxBackoff = 2, time.Millisecond, time.Millisecond
		o.StallTimeout, o.ProgressInterval = 5*time.Second, time.Millisecond
	}
	t.Cleanup(func() { provisionTestHook = nil })
	return f
}

func (f *cliFixture) sha() string {
	sum := sha256.Sum256(f.binary)
	return hex.EncodeToString(sum[:])
}

func closedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return "http://" + l.Addr().String()
}

func runProvision(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = RunProvision(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func parseLines(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "not JSON: %s", sc.Text())
		require.Contains(t, []any{"progress", "result", "error"}, m["type"])
		lines = append(lines, m)
	}
	return lines
}

func TestProvisionUsageErrors(t *testing.T) {
	code, _, stderr := runProvision("--bogus")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "usage: baton provision")
	code, _, stderr = runProvision("now")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, `unexpected argument "now"`)
	code, _, _ = runProvision("-h")
	assert.Equal(t, ExitOK, code)
}

func TestProvisionJSON(t *testing.T) {
	f := newCLIFixture(t)
	code, stdout, stderr := runProvision("--json")
	require.Equal(t, ExitOK, code, stderr)
	lines := parseLines(t, stdout)
	require.NotEmpty(t, lines)
	var downloading bool
	for _, l := range lines[:len(lines)-1] {
		require.Equal(t, "progress", l["type"])
		if l["phase"] == "downloading" {
			downloading = true
			assert.Equal(t, "cdn", l["source"])
			assert.EqualValues(t, len(f.binary), l["total"])
			assert.Contains(t, l, "rate")
			assert.Contains(t, l, "bytes")
		}
	}
	assert.True(t, downloading)
	last := lines[len(lines)-1]
	assert.Equal(t, "result", last["type"])
	assert.Equal(t, filepath.Join(f.dataDir, "runtime", "claude", cliTestVersion, "claude"), last["path"])
	assert.Equal(t, cliTestVersion, last["version"])
	assert.Equal(t, "cdn", last["source"])
	assert.Equal(t, f.sha(), last["sha256"])
	assert.Equal(t, false, last["alreadyInstalled"])

	code, stdout, _ = runProvision("--json")
	require.Equal(t, ExitOK, code)
	lines = parseLines(t, stdout)
	assert.Equal(t, true, lines[len(lines)-1]["alreadyInstalled"])

	code, stdout, _ = runProvision("--json", "--force")
	require.Equal(t, ExitOK, code)
	lines = parseLines(t, stdout)
	assert.Equal(t, false, lines[len(lines)-1]["alreadyInstalled"])
}

func TestProvisionText(t *testing.T) {
	f := newCLIFixture(t)
	code, stdout, stderr := runProvision()
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, "downloading claude from the release CDN…\n")
	assert.Contains(t, stdout, "claude "+cliTestVersion+" is installed.")
	assert.Contains(t, stdout, "  path     "+filepath.Join(f.dataDir, "runtime", "claude", cliTestVersion, "claude")+"\n")
	assert.Contains(t, stdout, "  sha256   "+f.sha()+"\n")
	assert.Contains(t, stdout, "  source   the release CDN ("+f.server.URL+"/cdn/")
	assert.NotContains(t, stdout, "\x1b[", "no terminal control codes when stdout is not a terminal")
}

func TestProvisionFailureIsActionable(t *testing.T) {
	f := newCLIFixture(t)
	f.server.Close() // the CDN is gone too

	code, stdout, stderr := runProvision()
	assert.Equal(t, ExitFailure, code)
	assert.NotContains(t, stdout, "is installed")
	assert.Contains(t, stderr, "baton provision: could not install claude "+cliTestVersion)
	assert.Contains(t, stderr, "release CDN")
	assert.Contains(t, stderr, "npm registry")
	assert.Contains(t, stderr, "BATON_NPM_REGISTRY")
	assert.Contains(t, stderr, "CLAUDE_CODE_EXECUTABLE")

	code, stdout, _ = runProvision("--json")
	assert.Equal(t, ExitFailure, code)
	lines := parseLines(t, stdout)
	last := lines[len(lines)-1]
	assert.Equal(t, "error", last["type"])
	attempts := last["attempts"].([]any)
	require.Len(t, attempts, 2)
	assert.Equal(t, "cdn", attempts[0].(map[string]any)["source"])
	assert.Equal(t, "npm", attempts[1].(map[string]any)["source"])
	assert.Contains(t, attempts[1].(map[string]any)["error"], "cannot connect")
}

func TestProgressBarOnATerminal(t *testing.T) {
	assert.Equal(t, "downloading claude.zst from the release CDN [#####-----]  50%  50.0/100.0 MB  25.0 MB/s",
		progressBar("downloading claude.zst from the release CDN", provision.Progress{Bytes: 50e6, Total: 100e6, Rate: 25e6}, 10))
	assert.Equal(t, "x  1.5 MB  0.5 MB/s", progressBar("x", provision.Progress{Bytes: 1.5e6, Rate: 5e5}, 10), "unknown total")

	var buf bytes.Buffer
	p := &textProvisionPrinter{w: &buf, stderr: &buf, tty: true}
	p.progress(provision.Progress{Phase: provision.PhaseDownloading, Source: "npm", Artifact: "pkg.tgz", Bytes: 1e6, Total: 4e6})
	p.progress(provision.Progress{Phase: provision.PhaseDownloading, Source: "npm", Artifact: "pkg.tgz", Bytes: 4e6, Total: 4e6})
	p.progress(provision.Progress{Phase: provision.PhaseInstalling})
	out := buf.String()
	assert.Equal(t, 2, strings.Count(out, "\r\x1b[Kdownloading pkg.tgz from the npm registry ["), "the bar redraws in place")
	assert.Contains(t, out, "100%")
	assert.True(t, strings.HasSuffix(out, "\r\x1b[Kverified; installing…\n"), "a message clears the bar first: %q", out)
}
