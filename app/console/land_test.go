package console_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/stretchr/testify/require"
)

// Landing one session merges exactly its work (its commit and its uncommitted file, committed with the message)
// into main in the main checkout; a second session that edited the same line conflicts: the outcome lists the
// file, main is left as it was, and after the session merges main and resolves it, it lands. A dirty main
// checkout is refused with its files named.
func TestLandMergesExactlyItsWorkAndReportsConflicts(t *testing.T) {
	g := newGitAPI(t)
	a := g.worktree(sessionA, "change readme")
	b := g.worktree(sessionB, "also readme")
	g.write(a.Path, "README.md", "hello from a\n")
	g.write(a.Path, "a.txt", "a\n")
	g.write(b.Path, "README.md", "hello from b\n")

	var res console.LandResult
	g.mustCall("landSession", console.LandParams{Session: sessionA, Method: console.LandMethodMerge}, &res)
	require.Equal(t, console.LandOutcomeNeedMessage, res.Outcome, res.Message)
	g.write(g.repo, "README.md", "dirty\n")
	g.mustCall("landSession", console.LandParams{Session: sessionA, Method: console.LandMethodMerge, Message: "a's work"}, &res)
	require.Equal(t, console.LandOutcomeDirty, res.Outcome)
	require.Equal(t, []string{"README.md"}, res.DirtyFiles)
	require.Contains(t, res.Message, "commit or stash them there, then land again")
	g.git(g.repo, "checkout", "--", "README.md")

	g.mustCall("landSession", console.LandParams{Session: sessionA, Method: console.LandMethodMerge, Message: "a's work"}, &res)
	require.Equal(t, console.LandOutcomeLanded, res.Outcome, res.Message)
	require.True(t, res.Committed)
	require.Equal(t, 1, res.Commits)
	require.True(t, res.FastForward)
	require.Equal(t, g.git(g.repo, "rev-parse", "HEAD"), res.Head)
	require.ElementsMatch(t, []string{"README.md", "a.txt", "src/app.go"}, strings.Fields(g.git(g.repo, "ls-tree", "-r", "--name-only", "HEAD")))
	require.Equal(t, "hello from a\n", g.git(g.repo, "show", "HEAD:README.md")+"\n")

	before := g.git(g.repo, "rev-parse", "HEAD")
	g.mustCall("landSession", console.LandParams{Session: sessionB, Method: console.LandMethodSquash, Message: "b's work"}, &res)
	require.Equal(t, console.LandOutcomeConflict, res.Outcome)
	require.Equal(t, []console.Conflict{{Path: "README.md", Kind: "both modified"}}, res.Conflicts)
	require.Contains(t, res.Message, "resolve them in the session")
	require.Equal(t, before, g.git(g.repo, "rev-parse", "HEAD"), "main is as it was")
	require.Empty(t, g.git(g.repo, "status", "--porcelain"), "nothing is left half-merged")

	// What the session would do when handed the conflict: merge main, resolve, commit; then it lands.
	_ = exec.Command("git", "-C", b.Path, "merge", "--quiet", "main").Run()
	g.write(b.Path, "README.md", "hello from a and b\n")
	g.git(b.Path, "add", "-A")
	g.git(b.Path, "commit", "--quiet", "--no-edit")
	g.mustCall("landSession", console.LandParams{Session: sessionB, Method: console.LandMethodSquash, Message: "b's work"}, &res)
	require.Equal(t, console.LandOutcomeLanded, res.Outcome, res.Message)
	require.Equal(t, "hello from a and b", g.git(g.repo, "show", "HEAD:README.md"))
}

// Archive never loses work unless confirmed: with uncommitted files or (deleting the branch) unlanded commits it
// removes nothing and lists them; forced, it removes the worktree and branch and forgets the session's worktree.
// A worktree whose folder was deleted by hand is pruned.
func TestArchiveRefusesToLoseWork(t *testing.T) {
	g := newGitAPI(t)
	a := g.worktree(sessionA, "work to keep")
	g.write(a.Path, "kept.txt", "k\n")
	g.git(a.Path, "add", "-A")
	g.git(a.Path, "commit", "--quiet", "-m", "kept work")
	g.write(a.Path, "wip.txt", "w\n")

	var res console.ArchiveResult
	yes := true
	g.mustCall("archiveWorktree", console.ArchiveParams{Session: sessionA, DeleteBranch: &yes}, &res)
	require.False(t, res.Archived)
	require.Equal(t, []string{"wip.txt"}, res.Uncommitted)
	require.Len(t, res.Unlanded, 1)
	require.Equal(t, "kept work", res.Unlanded[0].Subject)
	require.Contains(t, res.Message, "would lose 1 uncommitted file(s) (wip.txt) and 1 commit(s) not in main")
	_, err := os.Stat(filepath.Join(a.Path, "wip.txt"))
	require.NoError(t, err, "nothing was removed")

	g.mustCall("archiveWorktree", console.ArchiveParams{Session: sessionA, DeleteBranch: &yes, Force: &yes}, &res)
	require.True(t, res.Archived)
	require.True(t, res.Removed)
	require.True(t, res.BranchDeleted)
	_, err = os.Stat(a.Path)
	require.ErrorIs(t, err, os.ErrNotExist)
	require.True(t, g.meta.Get(sessionA).Worktree.IsZero(), "the session's worktree is forgotten")

	b := g.worktree(sessionB, "deleted by hand")
	require.NoError(t, os.RemoveAll(b.Path))
	var stale console.ChangesResult
	g.mustCall("sessionChanges", console.ChangesParams{Session: sessionB}, &stale)
	require.True(t, stale.Missing, "the stale worktree is noticed")
	require.Empty(t, stale.Files)
	var pruned console.PruneResult
	g.mustCall("pruneWorktrees", console.PruneParams{Cwd: g.repo}, &pruned)
	require.Equal(t, []string{b.Path}, pruned.Pruned)

	c := g.worktree(sessionC, "archived after deleting by hand")
	require.NoError(t, os.RemoveAll(c.Path))
	g.mustCall("archiveWorktree", console.ArchiveParams{Session: sessionC}, &res)
	require.True(t, res.Archived)
	require.True(t, res.AlreadyGone)
	require.Contains(t, res.Message, "was already deleted; git's record of it is pruned")
	require.NotContains(t, g.git(g.repo, "worktree", "list"), c.Path)
}

// A pull request pushes the branch to the remote (a local bare repository) and runs the person's gh. gh cannot
// reach GitHub here, so it is a stand-in on a temporary PATH that records its arguments and prints an address;
// without gh on PATH the result holds the exact commands to run. The PR's checks come from the stand-in's canned
// `gh pr checks --json` answer, or, without gh, as the command that shows them.
func TestPullRequestThroughGhOrTheCommands(t *testing.T) {
	g := newGitAPI(t)
	a := g.worktree(sessionA, "open a pr")
	g.write(a.Path, "pr.txt", "p\n")
	gitPath, err := exec.LookPath("git")
	require.NoError(t, err)
	gitDir := t.TempDir()
	require.NoError(t, os.Symlink(gitPath, filepath.Join(gitDir, "git")))
	require.NoError(t, os.Symlink(mustLook(t, "sh"), filepath.Join(gitDir, "sh"))) // the stand-in gh's shell
	t.Setenv("PATH", gitDir)

	var res console.PRResult
	g.mustCall("openPullRequest", console.PRParams{Session: sessionA, Message: "pr work"}, &res)
	require.True(t, res.Pushed)
	require.Equal(t, "origin", res.Remote)
	require.Empty(t, res.URL)
	require.Equal(t, "gh (GitHub's CLI) is not on PATH", res.Reason)
	require.Equal(t, []string{"cd " + a.Path, "gh pr create --base main --head " + a.Branch + " --fill"}, res.Commands)
	require.Equal(t, g.git(a.Path, "rev-parse", "HEAD"), g.git(g.remote, "rev-parse", a.Branch), "the branch is pushed")
	var checks console.PRChecksResult
	g.mustCall("pullRequestChecks", console.PRChecksParams{Session: sessionA}, &checks)
	require.Empty(t, checks.Checks)
	require.Equal(t, "gh (GitHub's CLI) is not on PATH", checks.Reason)
	require.Equal(t, []string{"cd " + a.Path, "gh pr checks " + a.Branch}, checks.Commands)

	ghDir := t.TempDir()
	record := filepath.Join(ghDir, "args.txt")
	// `gh pr checks` answers canned JSON and exits 8, as gh does while a check is pending.
	script := "#!" + mustLook(t, "sh") + "\nprintf '%s\\n' \"$*\" >> '" + record + "'\n" +
		"if [ \"$2\" = checks ]; then echo '" + `[{"name":"test","state":"SUCCESS","bucket":"pass","link":"https://ci.example/1"},` +
		`{"name":"lint","state":"PENDING","bucket":"pending"}]` + "'; exit 8; fi\n" +
		"[ \"$1\" = pr ] && echo https://github.example/o/r/pull/7\nexit 0\n"
	require.NoError(t, os.WriteFile(filepath.Join(ghDir, "gh"), []byte(script), 0o755))
	t.Setenv("PATH", ghDir+string(os.PathListSeparator)+gitDir)
	g.mustCall("openPullRequest", console.PRParams{Session: sessionA, Title: "The title", Body: "The body"}, &res)
	require.Equal(t, "https://github.example/o/r/pull/7", res.URL)
	require.Empty(t, res.Commands)
	data, err := os.ReadFile(record)
	require.NoError(t, err)
	require.Equal(t, "auth status\npr create --base main --head "+a.Branch+" --title The title --body The body\n", string(data))

	g.mustCall("pullRequestChecks", console.PRChecksParams{Session: sessionA}, &checks)
	require.Equal(t, []console.PRCheck{{Name: "test", State: "SUCCESS", Bucket: "pass", Link: "https://ci.example/1"},
		{Name: "lint", State: "PENDING", Bucket: "pending"}}, checks.Checks)
	require.Empty(t, checks.Commands)
	data, err = os.ReadFile(record)
	require.NoError(t, err)
	require.Contains(t, string(data), "auth status\npr checks "+a.Branch+" --json name,state,bucket,link\n")
}

func mustLook(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	require.NoError(t, err)
	return p
}
