package cli_test

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/provision"
	"github.com/stretchr/testify/require"
)

// plantClaude lays out <root>/sidecar/node_modules/@anthropic-ai/claude-agent-sdk-<platform>/ as a dev tree of the
// pinned SDK would, but its claude is a tiny script sparse-padded to the manifest's size that creates marker.
func plantClaude(t *testing.T, root, marker string) string {
	t.Helper()
	m := provision.Pinned()
	plat, err := provision.CurrentPlatform()
	require.NoError(t, err)
	a, err := m.Plain(plat)
	require.NoError(t, err)
	pkg := filepath.Join(root, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-"+plat.String())
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "package.json"),
		[]byte(`{"name":"@anthropic-ai/claude-agent-sdk-`+plat.String()+`","version":"`+m.SDKVersion+`"}`), 0o644))
	exe := filepath.Join(pkg, a.Binary)
	f, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	require.NoError(t, err)
	_, err = f.WriteString("#!/bin/sh\ntouch '" + marker + "'\necho '" + m.Version + " (Claude Code)'\nexit 0\n")
	require.NoError(t, err)
	require.NoError(t, f.Truncate(a.Size)) // sparse: the manifest's size, none of its bytes
	require.NoError(t, f.Close())
	return exe
}

// placeBaton puts a copy of the baton under test at <repo>/build/bin/baton, where a dev build lives.
func placeBaton(t *testing.T, repo string) string {
	t.Helper()
	dst := filepath.Join(repo, "build", "bin", "baton")
	require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	if os.Link(batonBin, dst) == nil {
		return dst
	}
	b, err := os.ReadFile(batonBin)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(dst, b, 0o755))
	return dst
}

func closedLoopbackURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return "http://" + l.Addr().String()
}

// A claude planted above the working directory and beside the executable's dev-tree path never runs: `baton
// exec` runs the checkout's own claude, which was asked for explicitly (BATON_DEV_TREE) and matches the manifest's
// sha256, and `baton doctor` names that same path.
func TestExecAndDoctorNeverRunAPlantedClaude(t *testing.T) {
	h := newCLIHarness(t)
	marker := filepath.Join(t.TempDir(), "planted-claude-ran")
	above := testenv.TempDir(t)
	plantClaude(t, above, marker)
	// And where the SDK's own lookup would find it from the working directory: node_modules/@anthropic-ai/….
	probeSDK := filepath.Join(above, "node_modules", "@anthropic-ai", "claude-agent-sdk")
	require.NoError(t, os.MkdirAll(probeSDK, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(probeSDK, "package.json"), []byte(`{"name":"@anthropic-ai/claude-agent-sdk","version":"0.0.1","main":"index.js"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(probeSDK, "index.js"), []byte(``), 0o644))
	pl := filepath.Join(above, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-linux-x64")
	require.NoError(t, os.Symlink(pl, filepath.Join(above, "node_modules", "@anthropic-ai", "claude-agent-sdk-linux-x64")))
	work := filepath.Join(above, "projects", "app")
	require.NoError(t, os.MkdirAll(work, 0o755))
	repo := testenv.TempDir(t)
	plantClaude(t, repo, marker)
	baton := placeBaton(t, repo)
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	genuine := testenv.RequireClaude(t)

	var env []string
	for _, kv := range h.env {
		if !strings.HasPrefix(kv, "CLAUDE_CODE_EXECUTABLE=") {
			env = append(env, kv)
		}
	}
	offline := closedLoopbackURL(t) // nothing is downloaded whatever happens
	env = append(env, "BATON_DEV_TREE="+root, "BATON_CDN_URL="+offline, "BATON_NPM_REGISTRY="+offline+"/")
	h.env, h.project = env, work

	r := h.runWith(baton, "exec", "--json", "hello")
	require.NoFileExists(t, marker, "the planted claude ran")
	require.Equal(t, 0, r.code, r.stderr)
	require.Len(t, find(parseEvents(t, r.stdout), activity.TurnCompleted), 1)
	logged := regexp.MustCompile(`"executable":"([^"]+)"`).FindAllStringSubmatch(readLog(t, h), -1)
	require.NotEmpty(t, logged, "the session's start names its executable in the log")
	for _, m := range logged {
		require.Equal(t, genuine, m[1])
	}

	r = h.runWith(baton, "doctor", "--json")
	require.NoFileExists(t, marker, "the planted claude ran")
	var rep struct {
		Executable struct {
			Path, Source string
			Verified     bool
		}
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout+r.stderr)
	require.Equal(t, genuine, rep.Executable.Path, "doctor names what sessions run")
	require.Equal(t, "sdk-package", rep.Executable.Source)
	require.True(t, rep.Executable.Verified)
}

func readLog(t *testing.T, h *cliHarness) string {
	t.Helper()
	for _, kv := range h.env {
		if dir, ok := strings.CutPrefix(kv, "BATON_DATA_DIR="); ok {
			b, err := os.ReadFile(filepath.Join(dir, "logs", "baton.log"))
			require.NoError(t, err)
			return string(b)
		}
	}
	t.Fatal("no BATON_DATA_DIR")
	return ""
}
