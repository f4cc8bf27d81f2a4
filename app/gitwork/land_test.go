package gitwork

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/stretchr/testify/require"
)

// sessionWork makes a worktree whose branch has one commit (session.txt) and one uncommitted file (wip.txt).
func sessionWork(t *testing.T, r *testRepo, name string) Worktree {
	t.Helper()
	c := create(t, r.root, CreateOptions{Name: name})
	gittest.Write(t, c.Path, name+".txt", "from "+name+"\n")
	commitAll(t, c.Path, "session "+name)
	gittest.Write(t, c.Path, name+"-wip.txt", "wip\n")
	return c.Worktree
}

// files lists what the commit's tree holds.
func files(t *testing.T, dir, rev string) []string {
	return strings.Fields(gittest.Git(t, dir, "ls-tree", "-r", "--name-only", rev))
}

// Each method lands exactly the session's work (its commit and its uncommitted file, committed with the message)
// into main in the main checkout, and leaves that checkout clean and on main.
func TestLandMergeSquashRebase(t *testing.T) {
	for _, m := range []Method{Merge, Squash, Rebase} {
		t.Run(string(m), func(t *testing.T) {
			r := newRepo(t)
			wt := sessionWork(t, r, "s-"+string(m))
			other := sessionWork(t, r, "other")
			r.write("main.txt", "main moved\n") // not a fast-forward
			commitAll(t, r.root, "main moves")
			before := files(t, r.root, "HEAD")

			res, err := Land(context.Background(), wt, LandOptions{Method: m, Message: "finish " + string(m)})
			require.NoError(t, err)
			require.True(t, res.Committed)
			require.Equal(t, 2, res.Commits)
			requireClean(t, r.root)
			require.Equal(t, "main", gittest.Git(t, r.root, "branch", "--show-current"))
			want := append(before, "s-"+string(m)+".txt", "s-"+string(m)+"-wip.txt")
			require.ElementsMatch(t, want, files(t, r.root, "HEAD"), "exactly the session's files landed")
			require.NotContains(t, files(t, r.root, "HEAD"), "other.txt")
			require.Equal(t, gittest.Git(t, r.root, "rev-parse", "HEAD"), res.Head)
			switch m {
			case Merge:
				require.Len(t, strings.Fields(gittest.Git(t, r.root, "log", "-1", "--format=%P")), 2, "a merge commit")
			case Squash:
				require.Len(t, strings.Fields(gittest.Git(t, r.root, "log", "-1", "--format=%P")), 1)
				require.Equal(t, "finish squash", gittest.Git(t, r.root, "log", "-1", "--format=%s"))
				a, err := Archive(context.Background(), wt, ArchiveOptions{DeleteBranch: true})
				require.NoError(t, err, "after a squash the branch holds nothing unlanded")
				require.True(t, a.BranchDeleted)
			case Rebase:
				require.Equal(t, "finish rebase", gittest.Git(t, r.root, "log", "-1", "--format=%s"))
				require.Equal(t, gittest.Git(t, r.root, "rev-parse", "HEAD"), gittest.Git(t, r.root, "rev-parse", wt.Branch))
			}
			_, err = Land(context.Background(), other, LandOptions{Method: m})
			require.ErrorIs(t, err, ErrNeedMessage, "uncommitted work needs a message")
		})
	}
}

func TestLandFastForwardsWhenItCan(t *testing.T) {
	r := newRepo(t)
	wt := sessionWork(t, r, "ff")
	res, err := Land(context.Background(), wt, LandOptions{Method: Merge, Message: "wip"})
	require.NoError(t, err)
	require.True(t, res.FastForward)
	require.Equal(t, gittest.Git(t, r.root, "rev-parse", wt.Branch), gittest.Git(t, r.root, "rev-parse", "HEAD"))
	_, err = Land(context.Background(), wt, LandOptions{Method: Merge})
	require.ErrorIs(t, err, ErrNothingToLand)
}

// A conflicting land is reported file by file and undone: the main checkout is left clean, on its old commit.
func TestAConflictingLandIsReportedAndUndone(t *testing.T) {
	for _, m := range []Method{Merge, Squash, Rebase} {
		t.Run(string(m), func(t *testing.T) {
			r := newRepo(t)
			c := create(t, r.root, CreateOptions{Name: "clash"})
			gittest.Write(t, c.Path, "README.md", "session's words\n")
			commitAll(t, c.Path, "session edit")
			r.write("README.md", "main's words\n")
			commitAll(t, r.root, "main edit")
			head := gittest.Git(t, r.root, "rev-parse", "HEAD")
			sessionHead := gittest.Git(t, c.Path, "rev-parse", "HEAD")

			_, err := Land(context.Background(), c.Worktree, LandOptions{Method: m})
			var ce *ConflictError
			require.ErrorAs(t, err, &ce)
			require.Equal(t, []Conflict{{Path: "README.md", Kind: "both modified"}}, ce.Files)
			require.Equal(t, m, ce.Method)
			requireClean(t, r.root)
			requireClean(t, c.Path)
			require.Equal(t, head, gittest.Git(t, r.root, "rev-parse", "HEAD"))
			require.Equal(t, sessionHead, gittest.Git(t, c.Path, "rev-parse", "HEAD"), "the session's branch is as it was")
			_, err = os.Stat(filepath.Join(r.root, ".git", "MERGE_HEAD"))
			require.ErrorIs(t, err, os.ErrNotExist)
		})
	}
}

func TestLandRefusesADirtyOrSwitchedMainCheckout(t *testing.T) {
	r := newRepo(t)
	wt := sessionWork(t, r, "refused")
	r.write("README.md", "edited in main\n")
	_, err := Land(context.Background(), wt, LandOptions{Method: Merge, Message: "m"})
	var de *DirtyError
	require.ErrorAs(t, err, &de)
	require.Equal(t, []string{"README.md"}, de.Files)
	require.Equal(t, "edited in main\n", readAt(t, r.root, "README.md"), "the person's edit is untouched")
	require.FileExists(t, filepath.Join(wt.Path, "refused-wip.txt"), "nothing was committed in the session either")
	require.Contains(t, gittest.Git(t, wt.Path, "status", "--porcelain"), "refused-wip.txt")

	gittest.Git(t, r.root, "checkout", "--quiet", "--", "README.md")
	gittest.Git(t, r.root, "switch", "--quiet", "-c", "elsewhere")
	_, err = Land(context.Background(), wt, LandOptions{Method: Merge, Message: "m"})
	var wb *WrongBranchError
	require.ErrorAs(t, err, &wb)
	require.Equal(t, "elsewhere", wb.Have)
	require.Contains(t, err.Error(), "switch main")
}

func TestArchiveRefusesToLoseWork(t *testing.T) {
	r := newRepo(t)
	wt := sessionWork(t, r, "keep")
	_, err := Archive(context.Background(), wt, ArchiveOptions{DeleteBranch: true})
	var lose *WouldLoseError
	require.ErrorAs(t, err, &lose)
	require.Equal(t, []string{"keep-wip.txt"}, lose.Uncommitted)
	require.Len(t, lose.Unlanded, 1)
	require.Equal(t, "session keep", lose.Unlanded[0].Subject)
	require.DirExists(t, wt.Path)

	commitAll(t, wt.Path, "wip")
	a, err := Archive(context.Background(), wt, ArchiveOptions{})
	require.NoError(t, err, "keeping the branch loses no commit")
	require.True(t, a.Removed)
	require.NoDirExists(t, wt.Path)
	require.Equal(t, wt.Branch, gittest.Git(t, r.root, "branch", "--list", "--format=%(refname:short)", wt.Branch))
	_, err = Archive(context.Background(), wt, ArchiveOptions{DeleteBranch: true})
	require.ErrorAs(t, err, &lose, "deleting the branch would lose its commits")
	require.Len(t, lose.Unlanded, 2)

	a, err = Archive(context.Background(), wt, ArchiveOptions{DeleteBranch: true, Force: true})
	require.NoError(t, err)
	require.True(t, a.BranchDeleted)
	requireClean(t, r.root)
}

func TestDiscardAndPruneStaleWorktrees(t *testing.T) {
	r := newRepo(t)
	wt := sessionWork(t, r, "throwaway")
	_, err := Discard(context.Background(), wt)
	require.NoError(t, err)
	require.NoDirExists(t, wt.Path)
	require.Empty(t, gittest.Git(t, r.root, "branch", "--list", wt.Branch))

	stale := sessionWork(t, r, "stale")
	require.NoError(t, os.RemoveAll(stale.Path)) // deleted by hand
	pruned, err := Prune(context.Background(), r.root)
	require.NoError(t, err)
	require.Equal(t, []string{stale.Path}, pruned)
	require.NotContains(t, gittest.Git(t, r.root, "worktree", "list"), stale.Path)
	pruned, err = Prune(context.Background(), r.root)
	require.NoError(t, err)
	require.Empty(t, pruned)
}

// gh cannot reach GitHub here, so the pull request goes to a stand-in gh on a temporary PATH that records its
// arguments (the push is real, to the local bare repository).
func TestOpenPRPushesAndRunsGh(t *testing.T) {
	r := newRepo(t)
	wt := sessionWork(t, r, "pr")
	bin := t.TempDir()
	record := filepath.Join(bin, "args")
	stub := "#!/bin/sh\nif [ \"$1\" = auth ]; then exit 0; fi\nprintf '%s\\n' \"$@\" > " + record +
		"\necho https://github.example/pr/1\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "gh"), []byte(stub), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	pr, err := OpenPR(context.Background(), wt, PROptions{Message: "wip", Title: "Session pr"})
	require.NoError(t, err)
	require.True(t, pr.Pushed)
	require.Equal(t, "https://github.example/pr/1", pr.URL)
	require.Equal(t, gittest.Git(t, wt.Path, "rev-parse", "HEAD"), gittest.Git(t, r.remote, "rev-parse", wt.Branch), "the branch reached the remote")
	args, err := os.ReadFile(record)
	require.NoError(t, err)
	require.Equal(t, "pr\ncreate\n--base\nmain\n--head\nbaton/pr\n--title\nSession pr\n--body\n\n", string(args))
}

// Without gh (or signed out) the branch is still pushed and the exact commands are returned.
func TestOpenPRWithoutGhSaysWhatToRun(t *testing.T) {
	r := newRepo(t)
	wt := sessionWork(t, r, "nogh")
	git, err := exec.LookPath("git") // a PATH with git and no gh
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(git, filepath.Join(bin, "git")))
	t.Setenv("PATH", bin)
	pr, err := OpenPR(context.Background(), wt, PROptions{Message: "wip"})
	require.NoError(t, err)
	require.True(t, pr.Pushed)
	require.Equal(t, []string{"cd " + wt.Path, "gh pr create --base main --head baton/nogh --fill"}, pr.Commands)
	require.Contains(t, pr.Reason, "not on PATH")

	_, err = OpenPR(context.Background(), Worktree{Repo: r.root, Path: wt.Path, Branch: wt.Branch, Base: "main"}, PROptions{Remote: "nowhere"})
	require.ErrorContains(t, err, "git remote add nowhere")
	require.True(t, errors.Is(err, ErrUnknownRef))
}
