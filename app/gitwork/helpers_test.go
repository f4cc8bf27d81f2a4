package gitwork

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// isolate points git at a config of the test's own (HOME too), so the person's settings cannot matter.
func isolate(t *testing.T) string {
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

// testRepo is a repository with one commit on main, pushed to a local bare repository as origin.
type testRepo struct {
	t      *testing.T
	root   string
	remote string
}

func newRepo(t *testing.T) *testRepo {
	t.Helper()
	isolate(t)
	base := t.TempDir()
	r := &testRepo{t: t, root: filepath.Join(base, "repo"), remote: filepath.Join(base, "remote.git")}
	gitOK(t, base, "init", "--quiet", "--bare", r.remote)
	gitOK(t, base, "init", "--quiet", r.root)
	r.write("README.md", "hello\n")
	r.write("src/app.go", lines(1, 30))
	r.write(".gitignore", ".env\n*.log\n")
	gitOK(t, r.root, "add", "-A")
	gitOK(t, r.root, "commit", "--quiet", "-m", "first")
	gitOK(t, r.root, "remote", "add", "origin", r.remote)
	gitOK(t, r.root, "push", "--quiet", "-u", "origin", "main")
	return r
}

func (r *testRepo) write(rel, content string) { writeAt(r.t, r.root, rel, content) }

func writeAt(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func readAt(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}

// lines is "line N\n" for N in [from, to].
func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString("line ")
		b.WriteString(itoa(i))
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func gitOK(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// commitAll commits everything in dir.
func commitAll(t *testing.T, dir, msg string) {
	t.Helper()
	gitOK(t, dir, "add", "-A")
	gitOK(t, dir, "commit", "--quiet", "-m", msg)
}

// clean says the checkout has nothing uncommitted (untracked included).
func requireClean(t *testing.T, dir string) {
	t.Helper()
	require.Empty(t, gitOK(t, dir, "status", "--porcelain"), "the checkout %s is clean", dir)
}

func create(t *testing.T, dir string, o CreateOptions) Created {
	t.Helper()
	c, err := Create(context.Background(), dir, o)
	require.NoError(t, err)
	return c
}
