package gitwork

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/stretchr/testify/require"
)

// testRepo is a repository with one commit on main, pushed to a local bare repository as origin.
type testRepo struct {
	t      *testing.T
	root   string
	remote string
}

func newRepo(t *testing.T) *testRepo {
	t.Helper()
	gittest.Isolate(t)
	base := t.TempDir()
	r := &testRepo{t: t, root: filepath.Join(base, "repo"), remote: filepath.Join(base, "remote.git")}
	gittest.Init(t, r.root, map[string]string{
		"README.md": "hello\n", "src/app.go": gittest.Numbered(1, 30), ".gitignore": ".env\n*.log\n",
	})
	gittest.Origin(t, r.root, r.remote)
	return r
}

func (r *testRepo) write(rel, content string) { gittest.Write(r.t, r.root, rel, content) }

func readAt(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}

// commitAll commits everything in dir.
func commitAll(t *testing.T, dir, msg string) {
	t.Helper()
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "--quiet", "-m", msg)
}

// clean says the checkout has nothing uncommitted (untracked included).
func requireClean(t *testing.T, dir string) {
	t.Helper()
	require.Empty(t, gittest.Git(t, dir, "status", "--porcelain"), "the checkout %s is clean", dir)
}

func create(t *testing.T, dir string, o CreateOptions) Created {
	t.Helper()
	c, err := Create(context.Background(), dir, o)
	require.NoError(t, err)
	return c
}
