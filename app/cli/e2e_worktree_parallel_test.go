package cli_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Two `baton exec --worktree` sessions started at once in one repository each get a worktree and branch of their
// own and never touch the main checkout; landing the first merges exactly its file; the second, which wrote the
// same file, conflicts: the land names the file, changes nothing, and after the session merges main and resolves
// it, lands. `baton archive` refuses to lose work until --force; `baton land --discard` throws work away.
func TestTwoWorktreeSessionsAtOnceThenLandAndConflict(t *testing.T) {
	h := newCLIHarness(t)
	gitRepoProject(t, h)
	ids := []string{"27272727-0000-4000-8000-00000000000a", "27272727-0000-4000-8000-00000000000b"}
	prompts := []string{"[write shared.txt from a]", "[write shared.txt from b]"}
	results := make([]result, 2)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := h.command(ctx, "exec", "--worktree", "--approve", "all", "--session-id", ids[i], prompts[i])
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			var exitErr *exec.ExitError
			results[i] = result{stdout: out.String(), stderr: errb.String()}
			if errors.As(err, &exitErr) {
				results[i].code = exitErr.ExitCode()
			} else if err != nil {
				results[i] = result{code: -1, stderr: err.Error()}
			}
		}()
	}
	wg.Wait()
	names := []string{"write-shared-txt-from-a", "write-shared-txt-from-b"}
	for i, r := range results {
		require.Equal(t, 0, r.code, r.stderr)
		wt := filepath.Join(h.project, ".claude", "worktrees", names[i])
		data, err := os.ReadFile(filepath.Join(wt, "shared.txt"))
		require.NoError(t, err)
		require.Equal(t, prompts[i][len("[write shared.txt "):len(prompts[i])-1]+"\n", string(data))
		require.Equal(t, "baton/"+names[i], gitIn(t, h, wt, "branch", "--show-current"))
	}
	_, err := os.Stat(filepath.Join(h.project, "shared.txt"))
	require.ErrorIs(t, err, os.ErrNotExist, "the main checkout is untouched")
	require.Empty(t, gitIn(t, h, h.project, "status", "--porcelain"))

	r := h.run("land", ids[0], "--merge", "--message", "a's work")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "README.md\nshared.txt", gitIn(t, h, h.project, "ls-tree", "-r", "--name-only", "main"))
	require.Equal(t, "from a", gitIn(t, h, h.project, "show", "main:shared.txt"))
	before := gitIn(t, h, h.project, "rev-parse", "main")

	r = h.run("land", ids[1], "--squash", "--message", "b's work")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "landing by squash conflicts with main; nothing was changed:")
	require.Contains(t, r.stderr, "both added")
	require.Contains(t, r.stderr, "shared.txt")
	require.Equal(t, before, gitIn(t, h, h.project, "rev-parse", "main"), "main did not move")
	require.Empty(t, gitIn(t, h, h.project, "status", "--porcelain"), "nothing is left half-merged")

	wtB := filepath.Join(h.project, ".claude", "worktrees", names[1])
	cmd := exec.Command("git", "merge", "--quiet", "main")
	cmd.Dir, cmd.Env = wtB, h.env
	_ = cmd.Run() // conflicts, as the land said: resolve it as the session would
	require.NoError(t, os.WriteFile(filepath.Join(wtB, "shared.txt"), []byte("from a and b\n"), 0o644))
	gitIn(t, h, wtB, "add", "-A")
	gitIn(t, h, wtB, "commit", "--quiet", "--no-edit")
	r = h.run("land", ids[1], "--squash", "--message", "b's work")
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, "from a and b", gitIn(t, h, h.project, "show", "main:shared.txt"))

	// a's worktree holds a file written after its land: archiving refuses to lose it, and says so, until --force.
	wtA := filepath.Join(h.project, ".claude", "worktrees", names[0])
	require.NoError(t, os.WriteFile(filepath.Join(wtA, "later.txt"), []byte("later\n"), 0o644))
	r = h.run("archive", ids[0], "--delete-branch")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "archiving would lose this work, so nothing was removed:\n  uncommitted  later.txt\n")
	require.FileExists(t, filepath.Join(wtA, "later.txt"))
	r = h.run("archive", ids[0], "--delete-branch", "--force")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Removed the worktree "+wtA+" and deleted the branch baton/"+names[0]+".")
	require.NoDirExists(t, wtA)

	r = h.run("land", ids[1], "--discard")
	require.Equal(t, 0, r.code, r.stderr)
	require.NoDirExists(t, wtB)
}
