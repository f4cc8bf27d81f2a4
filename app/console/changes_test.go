package console_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/stretchr/testify/require"
)

const (
	sessionA = "27270000-0000-4000-8000-00000000000a"
	sessionB = "27270000-0000-4000-8000-00000000000b"
	sessionC = "27270000-0000-4000-8000-00000000000c"
)

// Two sessions of one repository each have their own worktree: each one's changes (committed and not, against the
// base it branched from) list only its own files with the right counts, its diff is right, and the main checkout
// is never touched. A hunk and a file revert take exactly that back.
func TestEachWorktreeSessionSeesOnlyItsOwnChanges(t *testing.T) {
	g := newGitAPI(t)
	a := g.worktree(sessionA, "fix the app")
	b := g.worktree(sessionB, "add docs")
	require.NotEqual(t, a.Path, b.Path)
	g.write(a.Path, "src/app.go", strings.Replace(strings.Replace(gittest.Numbered(1, 30), "line 3\n", "line three\n", 1), "line 28\n", "line 28\nline 28b\n", 1))
	g.write(a.Path, "new.txt", "one\ntwo\n")
	g.git(a.Path, "add", "new.txt")
	g.git(a.Path, "commit", "--quiet", "-m", "new file")
	g.write(b.Path, "docs/guide.md", "# Guide\n")

	var ca console.ChangesResult
	g.mustCall("sessionChanges", console.ChangesParams{Session: sessionA}, &ca)
	require.Equal(t, a.Path, ca.Folder)
	require.Equal(t, "main", ca.Base)
	require.NotNil(t, ca.Worktree)
	require.Equal(t, a.Branch, ca.Worktree.Branch)
	require.Equal(t, []console.FileChange{
		{Path: "new.txt", Status: console.FileStatusAdded, Added: 2},
		{Path: "src/app.go", Status: console.FileStatusModified, Added: 2, Deleted: 1},
	}, ca.Files)
	var cb console.ChangesResult
	g.mustCall("sessionChanges", console.ChangesParams{Session: sessionB}, &cb)
	require.Equal(t, []console.FileChange{{Path: "docs/guide.md", Status: console.FileStatusAdded, Added: 1}}, cb.Files)
	require.Empty(t, g.git(g.repo, "status", "--porcelain"), "the main checkout is untouched")

	var d console.FileDiff
	g.mustCall("fileDiff", console.DiffParams{Session: sessionA, Path: "src/app.go"}, &d)
	require.Len(t, d.Hunks, 2)
	var added, deleted []string
	for _, h := range d.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case console.LineKindAdded:
				added = append(added, l.Text+"@"+itoa(l.New))
			case console.LineKindDeleted:
				deleted = append(deleted, l.Text+"@"+itoa(l.Old))
			case console.LineKindContext:
			}
		}
	}
	require.Equal(t, []string{"line three@3", "line 28b@29"}, added)
	require.Equal(t, []string{"line 3@3"}, deleted)

	var none console.Empty
	g.mustCall("revertHunk", console.RevertHunkParams{Session: sessionA, Path: "src/app.go", Hunk: d.Hunks[0]}, &none)
	data, err := os.ReadFile(filepath.Join(a.Path, "src/app.go"))
	require.NoError(t, err)
	require.Contains(t, string(data), "line 3\n", "the first hunk is back out")
	require.Contains(t, string(data), "line 28b\n", "the second hunk stays")
	e := g.call("revertHunk", console.RevertHunkParams{Session: sessionA, Path: "src/app.go", Hunk: d.Hunks[0]}, &none)
	require.NotNil(t, e, "the same hunk again is stale")
	require.Equal(t, console.CodeBadRequest, e.Code)
	require.Contains(t, e.Message, "read the diff again")

	g.mustCall("revertFile", console.RevertFileParams{Session: sessionA, Path: "new.txt"}, &none)
	g.mustCall("sessionChanges", console.ChangesParams{Session: sessionA}, &ca)
	require.Equal(t, []console.FileChange{{Path: "src/app.go", Status: console.FileStatusModified, Added: 1}}, ca.Files)
}

// A session not in a worktree shows its folder's changes against HEAD; a folder outside any repository says what
// to do, as does starting a worktree session there.
func TestAPlainSessionShowsItsFolderAgainstHead(t *testing.T) {
	g := newGitAPI(t)
	g.write(g.repo, "README.md", "hello\nworld\n")
	var c console.ChangesResult
	g.mustCall("sessionChanges", console.ChangesParams{Session: sessionA, Cwd: g.repo}, &c)
	require.Equal(t, "HEAD", c.Base)
	require.Nil(t, c.Worktree)
	require.Equal(t, []console.FileChange{{Path: "README.md", Status: console.FileStatusModified, Added: 1}}, c.Files)

	plain := t.TempDir()
	e := g.call("sessionChanges", console.ChangesParams{Session: sessionA, Cwd: plain}, &c)
	require.NotNil(t, e)
	require.Equal(t, console.CodeBadRequest, e.Code)
	require.Contains(t, e.Message, "run `git init` there")

	var started console.StartResult
	e = g.call("startSession", console.StartParams{Cwd: plain, Worktree: &console.WorktreeStart{Prompt: "x"}}, &started)
	require.NotNil(t, e)
	require.Equal(t, console.CodeBadRequest, e.Code)
	require.Contains(t, e.Message, "run `git init` there")
	e = g.call("startSession", console.StartParams{Cwd: g.repo, Resume: sessionA, Worktree: &console.WorktreeStart{}}, &started)
	require.NotNil(t, e)
	require.Contains(t, e.Message, "a resumed or forked one keeps its folder")
	e = g.call("landSession", console.LandParams{Session: sessionA, Method: console.LandMethodMerge}, &console.LandResult{})
	require.NotNil(t, e)
	require.Contains(t, e.Message, "was not started in a worktree")
}

// A failing setup command (git config baton.setup) fails the start with what it printed, so the person sees why.
func TestAFailingSetupCommandShowsItsOutput(t *testing.T) {
	g := newGitAPI(t)
	g.git(g.repo, "config", "baton.setup", "echo installing deps; echo no network >&2; exit 3")
	var started console.StartResult
	e := g.call("startSession", console.StartParams{Cwd: g.repo, Worktree: &console.WorktreeStart{Prompt: "set up"}}, &started)
	require.NotNil(t, e)
	require.Contains(t, e.Message, "the setup command")
	require.Contains(t, e.Message, "fix it (git config baton.setup)")
	require.Contains(t, e.Message, "Its output:\ninstalling deps\nno network\n")
}

// A worktree start whose session then fails to start (here: this API's manager has no sidecar to run it) takes the
// worktree, its new branch and its record back, so a failed start leaves nothing half-made.
func TestAFailedStartRemovesItsWorktree(t *testing.T) {
	g := newGitAPI(t)
	var started console.StartResult
	e := g.call("startSession", console.StartParams{Cwd: g.repo, Worktree: &console.WorktreeStart{Prompt: "never starts"}}, &started)
	require.NotNil(t, e, "the session cannot start without a sidecar")
	_, err := os.Stat(filepath.Join(g.repo, ".claude", "worktrees", "never-starts"))
	require.ErrorIs(t, err, os.ErrNotExist, "the worktree's folder is removed")
	require.Empty(t, g.git(g.repo, "branch", "--list", "baton/never-starts"), "its new branch is deleted")
	require.Equal(t, 1, strings.Count(g.git(g.repo, "worktree", "list", "--porcelain"), "worktree "), "git forgot it")
}
