package gitwork

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/stretchr/testify/require"
)

func byPath(list []FileChange) map[string]FileChange {
	m := map[string]FileChange{}
	for _, c := range list {
		m[c.Path] = c
	}
	return m
}

// The session's changes against its base: a committed edit, a committed rename, an uncommitted edit, a staged new
// file, an untracked file, a deletion and a binary file, each with its status and counts. The base moving on
// (another commit on main) adds nothing: changes start at the merge-base. The worktree's own index is not touched.
func TestChangesAgainstTheBase(t *testing.T) {
	r := newRepo(t)
	r.write("old/name.txt", gittest.Numbered(1, 20))
	r.write("gone.txt", "bye\n")
	commitAll(t, r.root, "more")
	c := create(t, r.root, CreateOptions{Prompt: "work"})
	w := c.Path

	gittest.Write(t, w, "README.md", "hello\nworld\n")
	require.NoError(t, os.MkdirAll(filepath.Join(w, "new"), 0o755))
	gittest.Git(t, w, "mv", "old/name.txt", "new/name.txt")
	commitAll(t, w, "committed work")
	gittest.Write(t, w, "src/app.go", strings.Replace(gittest.Numbered(1, 30), "line 10\n", "line ten\n", 1))
	gittest.Write(t, w, "staged.txt", "a\nb\n")
	gittest.Git(t, w, "add", "staged.txt")
	gittest.Write(t, w, "untracked.txt", "u1\nu2\nu3\n")
	gittest.Write(t, w, "ignored.log", "ignored\n")
	require.NoError(t, os.Remove(filepath.Join(w, "gone.txt")))
	require.NoError(t, os.WriteFile(filepath.Join(w, "image.bin"), []byte{0, 1, 2, 0, 255}, 0o644))
	r.write("main-only.txt", "on main\n")
	commitAll(t, r.root, "main moves on")
	indexBefore := gittest.Git(t, w, "ls-files", "--stage")

	list, err := Changes(context.Background(), c.Target())
	require.NoError(t, err)
	got := byPath(list)
	keys := make([]string, 0, len(got))
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	require.Equal(t, []string{"README.md", "gone.txt", "image.bin", "new/name.txt", "src/app.go", "staged.txt", "untracked.txt"}, keys)
	require.Equal(t, FileChange{Path: "README.md", Status: Modified, Added: 1}, got["README.md"])
	require.Equal(t, FileChange{Path: "new/name.txt", OldPath: "old/name.txt", Status: Renamed}, got["new/name.txt"])
	require.Equal(t, FileChange{Path: "src/app.go", Status: Modified, Added: 1, Deleted: 1}, got["src/app.go"])
	require.Equal(t, FileChange{Path: "staged.txt", Status: Added, Added: 2}, got["staged.txt"])
	require.Equal(t, FileChange{Path: "untracked.txt", Status: Added, Added: 3}, got["untracked.txt"])
	require.Equal(t, FileChange{Path: "gone.txt", Status: Deleted, Deleted: 1}, got["gone.txt"])
	require.Equal(t, FileChange{Path: "image.bin", Status: Added, Binary: true}, got["image.bin"])
	require.Equal(t, indexBefore, gittest.Git(t, w, "ls-files", "--stage"), "the session's index is its own")
}

// A folder that is not a worktree: its changes against HEAD.
func TestChangesOfAPlainCheckoutAgainstHEAD(t *testing.T) {
	r := newRepo(t)
	r.write("README.md", "hello\nagain\n")
	r.write("src/extra.go", "package x\n")
	list, err := Changes(context.Background(), Target{Dir: filepath.Join(r.root, "src")})
	require.NoError(t, err)
	require.ElementsMatch(t, []FileChange{
		{Path: "README.md", Status: Modified, Added: 1},
		{Path: "src/extra.go", Status: Added, Added: 1},
	}, list)
}

func TestADiffHasTypedHunksWithLineNumbers(t *testing.T) {
	r := newRepo(t)
	c := create(t, r.root, CreateOptions{Prompt: "diff"})
	text := strings.Replace(gittest.Numbered(1, 30), "line 3\n", "line three\n", 1)
	text = strings.Replace(text, "line 25\n", "line 25\nadded after 25\n", 1)
	gittest.Write(t, c.Path, "src/app.go", text)
	d, err := Diff(context.Background(), c.Target(), DiffRequest{Path: "src/app.go"})
	require.NoError(t, err)
	require.Len(t, d.Hunks, 2)
	h := d.Hunks[0]
	require.Equal(t, 1, h.OldStart)
	require.Equal(t, 1, h.NewStart)
	require.Contains(t, h.Lines, Line{Kind: Delete, Text: "line 3", Old: 3})
	require.Contains(t, h.Lines, Line{Kind: Add, Text: "line three", New: 3})
	require.Contains(t, h.Lines, Line{Kind: Context, Text: "line 2", Old: 2, New: 2})
	require.Contains(t, d.Hunks[1].Lines, Line{Kind: Add, Text: "added after 25", New: 26})

	// Untracked, renamed and binary files have diffs too.
	gittest.Write(t, c.Path, "fresh.txt", "one\ntwo")
	d, err = Diff(context.Background(), c.Target(), DiffRequest{Path: "fresh.txt"})
	require.NoError(t, err)
	require.Equal(t, []Line{{Kind: Add, Text: "one", New: 1}, {Kind: Add, Text: "two", New: 2, NoNewline: true}}, d.Hunks[0].Lines)
	require.NoError(t, os.WriteFile(filepath.Join(c.Path, "b.bin"), []byte{0, 1, 0}, 0o644))
	d, err = Diff(context.Background(), c.Target(), DiffRequest{Path: "b.bin"})
	require.NoError(t, err)
	require.True(t, d.Binary)
	require.Empty(t, d.Hunks)
	gittest.Git(t, c.Path, "mv", "README.md", "READ.md")
	gittest.Write(t, c.Path, "READ.md", "hello\nmore\n")
	d, err = Diff(context.Background(), c.Target(), DiffRequest{Path: "READ.md", OldPath: "README.md"})
	require.NoError(t, err)
	require.Equal(t, []Line{{Kind: Context, Text: "hello", Old: 1, New: 1}, {Kind: Add, Text: "more", New: 2}}, d.Hunks[0].Lines)
}

// A huge file's diff is cut at the bound, and says so.
func TestAHugeDiffIsBounded(t *testing.T) {
	r := newRepo(t)
	gittest.Write(t, r.root, "big.txt", gittest.Numbered(1, 50_000))
	d, err := Diff(context.Background(), Target{Dir: r.root}, DiffRequest{Path: "big.txt", MaxLines: 1000})
	require.NoError(t, err)
	require.True(t, d.Truncated)
	require.Len(t, d.Hunks[0].Lines, 1000)
}

func TestRevertAHunkAndAFile(t *testing.T) {
	r := newRepo(t)
	c := create(t, r.root, CreateOptions{Prompt: "revert"})
	text := strings.Replace(gittest.Numbered(1, 30), "line 3\n", "line three\n", 1)
	text = strings.Replace(text, "line 25\n", "line twenty-five\n", 1)
	gittest.Write(t, c.Path, "src/app.go", text)
	commitAll(t, c.Path, "two edits") // a committed change can be reverted too: against the base
	d, err := Diff(context.Background(), c.Target(), DiffRequest{Path: "src/app.go"})
	require.NoError(t, err)
	require.Len(t, d.Hunks, 2)

	require.NoError(t, RevertHunk(context.Background(), c.Target(), DiffRequest{Path: "src/app.go"}, d.Hunks[1]))
	require.Equal(t, strings.Replace(gittest.Numbered(1, 30), "line 3\n", "line three\n", 1), readAt(t, c.Path, "src/app.go"))
	require.ErrorIs(t, RevertHunk(context.Background(), c.Target(), DiffRequest{Path: "src/app.go"}, d.Hunks[1]), ErrStaleHunk)

	gittest.Write(t, c.Path, "added.txt", "x\n")
	for _, f := range []FileChange{{Path: "src/app.go", Status: Modified}, {Path: "added.txt", Status: Added}} {
		require.NoError(t, RevertFile(context.Background(), c.Target(), f))
	}
	list, err := Changes(context.Background(), c.Target())
	require.NoError(t, err)
	require.Empty(t, list)
	require.Equal(t, gittest.Numbered(1, 30), readAt(t, c.Path, "src/app.go"))
}
