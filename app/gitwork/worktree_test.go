package gitwork

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/stretchr/testify/require"
)

// Two sessions' worktrees from one repository: each on its own new branch off main, under .claude/worktrees,
// named from the prompt; what each writes stays in it, and the main checkout never changes (nor shows them).
func TestTwoWorktreesNeverTouchTheMainCheckout(t *testing.T) {
	r := newRepo(t)
	head := gittest.Git(t, r.root, "rev-parse", "HEAD")
	var wg sync.WaitGroup
	made := make([]Created, 2)
	errs := make([]error, 2)
	for i, prompt := range []string{"Fix the login bug!", "Fix the login bug!"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			made[i], errs[i] = Create(context.Background(), r.root, CreateOptions{Prompt: prompt})
		}()
	}
	wg.Wait()
	require.NoError(t, errors.Join(errs...))
	require.NotEqual(t, made[0].Path, made[1].Path)
	require.NotEqual(t, made[0].Branch, made[1].Branch)
	for _, c := range made {
		require.Equal(t, filepath.Join(r.root, ".claude", "worktrees"), filepath.Dir(c.Path))
		require.True(t, strings.HasPrefix(filepath.Base(c.Path), "fix-the-login-bug"), c.Path)
		require.Equal(t, "baton/"+filepath.Base(c.Path), c.Branch)
		require.Equal(t, "main", c.Base)
		require.True(t, c.NewBranch)
		require.Equal(t, head, gittest.Git(t, c.Path, "rev-parse", "HEAD"))
		gittest.Write(t, c.Path, "README.md", "changed in "+c.Branch+"\n")
		gittest.Write(t, c.Path, "new.txt", "new\n")
		commitAll(t, c.Path, "work")
		gittest.Write(t, c.Path, "wip.txt", "uncommitted\n")
	}
	requireClean(t, r.root)
	require.Equal(t, "hello\n", readAt(t, r.root, "README.md"))
	require.Equal(t, head, gittest.Git(t, r.root, "rev-parse", "HEAD"))
	require.Equal(t, "main", gittest.Git(t, r.root, "branch", "--show-current"))
}

func TestCreateOnAGivenBaseOrAnExistingBranch(t *testing.T) {
	r := newRepo(t)
	first := gittest.Git(t, r.root, "rev-parse", "HEAD")
	gittest.Git(t, r.root, "branch", "feature")
	r.write("later.txt", "later\n")
	commitAll(t, r.root, "later")

	c := create(t, r.root, CreateOptions{Prompt: "x", Base: first, Branch: "topic"})
	require.True(t, c.NewBranch)
	require.Equal(t, "topic", c.Branch)
	require.Equal(t, first, c.Base)
	require.Equal(t, first, gittest.Git(t, c.Path, "rev-parse", "HEAD"))

	e := create(t, filepath.Join(r.root, "src"), CreateOptions{Branch: "feature"})
	require.Equal(t, filepath.Join(e.Path, "src"), e.Cwd, "a subfolder's session starts in the same subfolder")
	require.False(t, e.NewBranch, "an existing branch is checked out, not made")
	require.Equal(t, "feature", gittest.Git(t, e.Path, "branch", "--show-current"))
	require.Equal(t, "main", e.Base)

	_, err := Create(context.Background(), r.root, CreateOptions{Prompt: "x", Base: "no-such-ref"})
	require.ErrorIs(t, err, ErrUnknownRef)
	require.ErrorContains(t, err, "git branch -a")
}

func TestCreateOutsideARepositorySaysWhatToDo(t *testing.T) {
	gittest.Isolate(t)
	_, err := Create(context.Background(), t.TempDir(), CreateOptions{Prompt: "x"})
	require.ErrorIs(t, err, ErrNotRepo)
	require.ErrorContains(t, err, "git init")
}

// .worktreeinclude's ignored files are copied (not a tracked or unlisted one), the location and setup come from
// the repository's git config, and the setup's output reaches the callback.
func TestIncludesSettingsAndSetup(t *testing.T) {
	r := newRepo(t)
	r.write(".worktreeinclude", ".env\nconfig/*.local\n")
	r.write(".env", "SECRET=1\n")
	r.write("config/db.local", "local\n")
	r.write("debug.log", "not listed\n")
	r.write(".gitignore", ".env\n*.log\nconfig/db.local\n")
	commitAll(t, r.root, "ignore db.local")
	r.write("config/x.local", "listed, but not ignored by git\n")
	outside := t.TempDir()
	gittest.Git(t, r.root, "config", "baton.worktreeDir", outside)
	gittest.Git(t, r.root, "config", "baton.branchPrefix", "s/")
	gittest.Git(t, r.root, "config", "baton.setup", "echo setting up; cat .env >&2")

	var mu sync.Mutex
	var out strings.Builder
	c := create(t, r.root, CreateOptions{Name: "Named", Output: func(b []byte) { mu.Lock(); out.Write(b); mu.Unlock() }})
	require.Equal(t, filepath.Join(outside, "Named"), c.Path)
	require.Equal(t, "s/Named", c.Branch)
	require.ElementsMatch(t, []string{".env", "config/db.local"}, c.Copied)
	require.Equal(t, "SECRET=1\n", readAt(t, c.Path, ".env"))
	_, err := os.Stat(filepath.Join(c.Path, "debug.log"))
	require.ErrorIs(t, err, os.ErrNotExist)
	_, err = os.Stat(filepath.Join(c.Path, "config/x.local"))
	require.ErrorIs(t, err, os.ErrNotExist)
	mu.Lock()
	require.Equal(t, "setting up\nSECRET=1\n", out.String())
	mu.Unlock()

	gittest.Git(t, r.root, "config", "baton.setup", "exit 3")
	_, err = Create(context.Background(), r.root, CreateOptions{Prompt: "fails"})
	require.ErrorContains(t, err, "setup command")
}

func TestSlug(t *testing.T) {
	require.Equal(t, "fix-the-login-bug-in-auth-go", Slug("Fix the login bug in auth.go!"))
	require.Equal(t, "session", Slug("  ✨ "))
	long := Slug(strings.Repeat("word ", 40))
	require.LessOrEqual(t, len(long), maxNameLen)
	require.False(t, strings.HasSuffix(long, "-"))
}

// Many sessions' worktrees started at once in one repository each get theirs. Git alone cannot: two `git worktree
// add` at once fail when one reads the other's half-written entry under .git/worktrees ("failed to read
// …/commondir"), as two `baton exec --worktree` did in CI.
func TestManyWorktreesMadeAtOnceAllSucceed(t *testing.T) {
	r := newRepo(t)
	const rounds, n = 5, 12 // rounds: the race needs a few goes to show on a quiet machine
	for round := range rounds {
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = Create(context.Background(), r.root, CreateOptions{Prompt: fmt.Sprintf("task %d %d", round, i)})
			}()
		}
		wg.Wait()
		require.NoError(t, errors.Join(errs...))
	}
	entries, err := os.ReadDir(filepath.Join(r.root, ".claude", "worktrees"))
	require.NoError(t, err)
	require.Len(t, entries, rounds*n)
}

// Reading the worktrees (every Create opens the repository with `git worktree list`) while others are being made
// or removed never reads an entry half-made: in CI a Create failed in `git worktree list` ("failed to read
// .git/worktrees/…/commondir") while another's `git worktree add` ran.
func TestWorktreesReadWhileOthersAreMadeAndRemoved(t *testing.T) {
	r := newRepo(t)
	const n, readers = 12, 4
	var made sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		made.Add(1)
		go func() {
			defer made.Done()
			c, err := Create(context.Background(), r.root, CreateOptions{Prompt: fmt.Sprintf("made %d", i)})
			if err == nil && i%2 == 0 {
				err = Undo(context.Background(), c)
			}
			errs[i] = err
		}()
	}
	done := make(chan struct{})
	readErrs := make([]error, readers)
	var read sync.WaitGroup
	for i := range readers {
		read.Add(1)
		go func() {
			defer read.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if _, err := OpenRepo(context.Background(), r.root); err != nil {
					readErrs[i] = err
					return
				}
			}
		}()
	}
	made.Wait()
	close(done)
	read.Wait()
	require.NoError(t, errors.Join(errs...))
	require.NoError(t, errors.Join(readErrs...))
}
