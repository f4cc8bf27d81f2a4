package gitwork

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/stretchr/testify/require"
)

// A start that fails after git made the worktree (here its setup command) takes the worktree and its new branch
// back: the repository is as it was, nothing half-made.
func TestAFailedSetupLeavesNoWorktreeOrBranch(t *testing.T) {
	r := newRepo(t)
	gittest.Git(t, r.root, "config", "baton.setup", "touch made-by-setup; exit 3")
	_, err := Create(context.Background(), r.root, CreateOptions{Prompt: "half made"})
	require.ErrorContains(t, err, "setup command")
	require.ErrorContains(t, err, "was removed")
	_, err = os.Stat(filepath.Join(r.root, ".claude", "worktrees", "half-made"))
	require.ErrorIs(t, err, os.ErrNotExist)
	require.Empty(t, gittest.Git(t, r.root, "branch", "--list", "baton/half-made"))
	require.Equal(t, 1, strings.Count(gittest.Git(t, r.root, "worktree", "list", "--porcelain"), "worktree "), "only the main checkout")
}

// Undo keeps an existing branch that was only checked out, and forgets a worktree whose folder is gone already.
func TestUndoKeepsAnExistingBranch(t *testing.T) {
	r := newRepo(t)
	gittest.Git(t, r.root, "branch", "feature")
	c := create(t, r.root, CreateOptions{Branch: "feature"})
	require.False(t, c.NewBranch)
	require.NoError(t, os.RemoveAll(c.Path))
	require.NoError(t, Undo(context.Background(), c))
	require.NotEmpty(t, gittest.Git(t, r.root, "branch", "--list", "feature"))
	require.NotContains(t, gittest.Git(t, r.root, "worktree", "list"), c.Path)
}
