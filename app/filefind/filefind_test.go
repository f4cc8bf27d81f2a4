package filefind_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/filefind"
	"github.com/baton-console/baton/app/internal/gittest"
)

func write(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x\n"), 0o644))
	}
}

func paths(ms []filefind.Match) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		if m.Dir {
			out = append(out, m.Path+"/")
		} else {
			out = append(out, m.Path)
		}
	}
	return out
}

func listed(l filefind.Listing) []string {
	out := make([]string, 0, len(l.Entries))
	for _, e := range l.Entries {
		if e.Dir {
			out = append(out, e.Path+"/")
		} else {
			out = append(out, e.Path)
		}
	}
	return out
}

func TestGitListingRespectsGitignoreAndHasFolders(t *testing.T) {
	gittest.Isolate(t)
	root := t.TempDir()
	gittest.Git(t, root, "init", "-q")
	write(t, root, ".gitignore", "src/app/main.go", "docs/readme.md", "build/out.bin", "notes.txt")
	require.NoError(t, os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n"), 0o644))
	gittest.Git(t, root, "add", ".gitignore", "src", "docs")
	// notes.txt stays untracked: it is listed; build/ is ignored: it is not.
	l, err := filefind.List(context.Background(), root)
	require.NoError(t, err)
	assert.True(t, l.Git)
	assert.ElementsMatch(t, []string{".gitignore", "notes.txt", "docs/", "src/", "docs/readme.md", "src/app/", "src/app/main.go"}, listed(l))
	assert.Equal(t, []string{".gitignore", "docs/", "notes.txt", "src/"}, listed(filefind.Listing{Entries: l.Entries[:4]}), "shallow entries first")
}

func TestGitListingOfASubfolderIsRelativeToIt(t *testing.T) {
	gittest.Isolate(t)
	root := t.TempDir()
	gittest.Git(t, root, "init", "-q")
	write(t, root, "top.txt", "pkg/a/b.go")
	l, err := filefind.List(context.Background(), filepath.Join(root, "pkg"))
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"a/", "a/b.go"}, listed(l))
}

func TestWalkOutsideGitSkipsHiddenAndDependencyFolders(t *testing.T) {
	gittest.Isolate(t)
	root := t.TempDir()
	write(t, root, "a.txt", "src/b.ts", "node_modules/x/index.js", ".cache/y")
	l, err := filefind.List(context.Background(), root)
	require.NoError(t, err)
	assert.False(t, l.Git)
	assert.ElementsMatch(t, []string{"a.txt", "src/", "src/b.ts"}, listed(l))
}

func TestRankPrefersTheFileNameAndSegmentStarts(t *testing.T) {
	l, err := listOf(t, "src/components/Button.tsx", "src/bu/tt/on.go", "docs/button-guide.md", "lib/ribbon.ts", "src/components/Badge.tsx")
	require.NoError(t, err)
	got := paths(filefind.Rank(l.Entries, "button", 10))
	require.GreaterOrEqual(t, len(got), 3)
	assert.Equal(t, []string{"src/components/Button.tsx", "docs/button-guide.md"}, got[:2])
	assert.NotContains(t, got, "lib/ribbon.ts")
	assert.Equal(t, "src/components/Badge.tsx", paths(filefind.Rank(l.Entries, "comp/badge", 1))[0], "a query with a / matches over folders")
	assert.Equal(t, []string{"docs/", "lib/", "src/"}, paths(filefind.Rank(l.Entries, "", 3)), "no query: the shallowest entries")
	assert.Len(t, filefind.Rank(l.Entries, "zzz", 10), 0)
}

func listOf(t *testing.T, files ...string) (filefind.Listing, error) {
	gittest.Isolate(t)
	root := t.TempDir()
	write(t, root, files...)
	return filefind.List(context.Background(), root)
}

func TestIndexCachesAndRelistsAStaleFolderInTheBackground(t *testing.T) {
	gittest.Isolate(t)
	root := t.TempDir()
	write(t, root, "one.txt")
	x := filefind.NewIndex(time.Nanosecond) // every listing is stale at once
	got, _, err := x.Find(context.Background(), root, "txt", 10)
	require.NoError(t, err)
	assert.Equal(t, []string{"one.txt"}, paths(got))
	write(t, root, "two.txt")
	x.WaitRelisted(root) // the relisting the first Find started (before two.txt existed, or after)
	_, _, err = x.Find(context.Background(), root, "txt", 10)
	require.NoError(t, err)
	x.WaitRelisted(root) // this one started after two.txt was written
	got, _, err = x.Find(context.Background(), root, "txt", 10)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"one.txt", "two.txt"}, paths(got))
}

func TestIndexSaysWhenTheFolderIsMissing(t *testing.T) {
	x := filefind.NewIndex(0)
	_, _, err := x.Find(context.Background(), filepath.Join(t.TempDir(), "gone"), "", 10)
	require.ErrorContains(t, err, "read the session's folder")
}
