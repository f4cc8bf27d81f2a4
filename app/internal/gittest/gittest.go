// Package gittest sets up real git repositories for tests, under a git config of the test's own so that the
// person's settings (signing, hooks, default branch) cannot matter.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Isolate points git at a config of the test's own (HOME and XDG_CONFIG_HOME too) and returns that HOME.
func Isolate(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	require.NoError(t, os.WriteFile(cfg, []byte("[user]\n\tname = Test\n\temail = test@example.com\n"+
		"[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"), 0o644))
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	return home
}

// Init makes a repository at dir with files (path relative to dir, slash-separated: content) committed on main
// as "first".
func Init(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	Git(t, dir, "init", "--quiet")
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		Write(t, dir, name, files[name])
	}
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "--quiet", "-m", "first")
}

// Origin makes a bare repository at remote, adds it to repo as origin and pushes main there.
func Origin(t testing.TB, repo, remote string) {
	t.Helper()
	Git(t, filepath.Dir(remote), "init", "--quiet", "--bare", remote)
	Git(t, repo, "remote", "add", "origin", remote)
	Git(t, repo, "push", "--quiet", "-u", "origin", "main")
}

// Git runs git in dir, fails the test if it fails, and returns its output trimmed.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// Write writes content to rel (slash-separated) under dir, making its folders.
func Write(t testing.TB, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

// Numbered is "line N\n" for N in [from, to].
func Numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("\n")
	}
	return b.String()
}
