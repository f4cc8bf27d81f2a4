package testenv_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
)

func TestRepoRootHoldsGoMod(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	assert.Contains(t, string(mod), "module github.com/baton-console/baton")
	wd, _ := os.Getwd()
	assert.True(t, strings.HasPrefix(wd, root))

	t.Chdir(t.TempDir())
	_, err = testenv.RepoRoot()
	if err != nil { // a temp dir inside some other module is possible, but normally there is none
		assert.Contains(t, err.Error(), "no go.mod")
	}
}

func TestClaudePath(t *testing.T) {
	t.Setenv("CLAUDE_CODE_EXECUTABLE", "")
	p, err := testenv.ClaudePath()
	require.NoError(t, err, "the dev tree has the SDK's native CLI installed")
	assert.Contains(t, p, filepath.Join("sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-"))
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.False(t, st.IsDir())

	custom := filepath.Join(t.TempDir(), "claude")
	require.NoError(t, os.WriteFile(custom, []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("CLAUDE_CODE_EXECUTABLE", custom)
	p, err = testenv.ClaudePath()
	require.NoError(t, err)
	assert.Equal(t, custom, p)

	t.Setenv("CLAUDE_CODE_EXECUTABLE", filepath.Join(t.TempDir(), "missing"))
	_, err = testenv.ClaudePath()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "CLAUDE_CODE_EXECUTABLE")

	t.Setenv("CLAUDE_CODE_EXECUTABLE", "")
	t.Chdir(t.TempDir())
	if _, err := testenv.ClaudePath(); err != nil {
		assert.NotContains(t, err.Error(), "CLAUDE_CODE_EXECUTABLE points")
	}
}

func TestClaudePathNamesSetupWhenMissing(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644))
	t.Chdir(dir)
	t.Setenv("CLAUDE_CODE_EXECUTABLE", "")
	_, err := testenv.ClaudePath()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "scripts/setup")
	assert.Contains(t, err.Error(), filepath.Join(dir, "sidecar", "node_modules"))
}

func envMap(t *testing.T, env []string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		require.True(t, ok, kv)
		_, dup := m[k]
		require.False(t, dup, "duplicate %s", k)
		m[k] = v
	}
	return m
}

func TestCLIEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "leak")
	t.Setenv("ANTHROPIC_BASE_URL", "https://api.anthropic.com")
	t.Setenv("CLAUDE_CODE_USE_BEDROCK", "1")
	t.Setenv("CLAUDE_CONFIG_DIR", "/elsewhere")
	t.Setenv("BATON_TEST_KEEP", "kept")
	// The machine's own desktop, editor, git and locale do not reach the CLI.
	for _, kv := range [][2]string{{"DISPLAY", ":0"}, {"WAYLAND_DISPLAY", "wayland-0"}, {"EDITOR", "vim"}, {"VISUAL", "code"},
		{"BROWSER", "firefox"}, {"XDG_CONFIG_HOME", "/home/me/.config"}, {"GIT_DIR", "/repo/.git"}, {"GIT_AUTHOR_NAME", "Me"},
		{"LANG", "de_DE.UTF-8"}, {"LC_ALL", "de_DE.UTF-8"}, {"LANGUAGE", "de"}} {
		t.Setenv(kv[0], kv[1])
	}
	env := envMap(t, testenv.CLIEnv("http://127.0.0.1:1234", "/tmp/h"))

	assert.Equal(t, os.Getenv("PATH"), env["PATH"])
	assert.Equal(t, "kept", env["BATON_TEST_KEEP"])
	assert.Equal(t, "/tmp/h", env["HOME"])
	assert.Equal(t, filepath.Join("/tmp/h", ".claude"), env["CLAUDE_CONFIG_DIR"])
	assert.Equal(t, "http://127.0.0.1:1234", env["ANTHROPIC_BASE_URL"])
	assert.Equal(t, testenv.FakeAPIKey, env["ANTHROPIC_API_KEY"])
	assert.Equal(t, "1", env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"])
	assert.Equal(t, "0", env["CLAUDE_CODE_MAX_RETRIES"])
	assert.Equal(t, filepath.Join("/tmp/h", "tmp"), env["CLAUDE_CODE_TMPDIR"])
	assert.NotContains(t, env, "ANTHROPIC_AUTH_TOKEN")
	assert.NotContains(t, env, "CLAUDE_CODE_USE_BEDROCK")
	for _, k := range []string{"DISPLAY", "WAYLAND_DISPLAY", "EDITOR", "VISUAL", "BROWSER", "XDG_CONFIG_HOME", "GIT_DIR",
		"GIT_AUTHOR_NAME", "LC_ALL", "LANGUAGE"} {
		assert.NotContains(t, env, k)
	}
	assert.Equal(t, "1", env["GIT_CONFIG_NOSYSTEM"])
	assert.Equal(t, "C.UTF-8", env["LANG"])
}

func TestNewHomeAndProject(t *testing.T) {
	home := testenv.NewHome(t)
	st, err := os.Stat(filepath.Join(home, ".claude"))
	require.NoError(t, err)
	assert.True(t, st.IsDir())
	proj := testenv.NewProject(t)
	resolved, err := filepath.EvalSymlinks(proj)
	require.NoError(t, err)
	assert.Equal(t, resolved, proj, "already the real path")
	assert.NotEqual(t, home, proj)
}

func TestPrintResultHelpers(t *testing.T) {
	srv, err := fakeapi.Start(nil)
	require.NoError(t, err)
	defer srv.Close()
	home, proj := testenv.NewHome(t), testenv.NewProject(t)
	res := testenv.RunPrint(t, testenv.PrintRun{BaseURL: srv.URL(), Home: home, Dir: proj, Prompt: "[bash echo from-helper]"})

	require.Equal(t, 0, res.ExitCode, "stderr: %s", res.Stderr)
	assert.Equal(t, "system", res.Lines[0].Type)
	assert.Equal(t, "init", res.Lines[0].Subtype)
	assert.Regexp(t, `^[0-9a-f-]{36}$`, res.SessionID())
	r := res.Result()
	require.NotNil(t, r)
	assert.Equal(t, "Tool results: [ok] from-helper", r.Result)
	uses := res.Blocks("assistant", "tool_use")
	require.Len(t, uses, 1)
	assert.Equal(t, "Bash", uses[0].Name)
	results := res.Blocks("user", "tool_result")
	require.Len(t, results, 1)
	assert.Equal(t, uses[0].ID, results[0].ToolUseID)
	assert.Contains(t, results[0].ResultText(), "from-helper")
	assert.Equal(t, fakeapi.ToolIntroText, res.Blocks("assistant", "text")[0].Text)

	scratch, err := os.ReadDir(filepath.Join(home, "tmp"))
	require.NoError(t, err, "the CLI keeps its scratch files in the temp home")
	assert.NotEmpty(t, scratch)
}

// fatalRecorder stands in for *testing.T so a helper's Fatalf can be observed instead of failing.
type fatalRecorder struct {
	testing.TB
	msg string
}

type fatalStop struct{}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(fatalStop{})
}

func TestRunPrintKillsTheCLIAndItsChildrenOnTimeout(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc to find leftover processes")
	}
	srv, err := fakeapi.Start(nil)
	require.NoError(t, err)
	defer srv.Close()
	home, proj := testenv.NewHome(t), testenv.NewProject(t)
	// Unique among this machine's processes; chained because the CLI blocks a standalone long sleep.
	marker := "sleep 3" + strconv.Itoa(os.Getpid()%1000) + "7"

	rec := &fatalRecorder{TB: t}
	func() {
		defer func() {
			if p := recover(); p != nil {
				_, ok := p.(fatalStop)
				require.True(t, ok, "unexpected panic %v", p)
			}
		}()
		testenv.RunPrint(rec, testenv.PrintRun{BaseURL: srv.URL(), Home: home, Dir: proj,
			Prompt: "[bash echo started && " + marker + "]", Args: []string{"--allowedTools", "Bash"}, Timeout: 4 * time.Second})
	}()
	require.Contains(t, rec.msg, "was killed", "RunPrint must fail the test on timeout")
	assert.Empty(t, processesMatching(t, marker), "the Bash child must die with the CLI")
}

// processesMatching lists the pids whose command line contains s.
func processesMatching(t *testing.T, s string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(strings.ReplaceAll(string(cmdline), "\x00", " "), s) {
			out = append(out, e.Name())
		}
	}
	return out
}
