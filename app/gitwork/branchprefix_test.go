package gitwork

import (
	"context"
	"testing"

	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The check agrees with git's own (`git check-ref-format --branch`) on what the prefix makes of a name.
func TestCheckBranchPrefixAgreesWithGit(t *testing.T) {
	g := gitAt(t.TempDir())
	for _, prefix := range []string{
		"", "baton/", "me/", "feature-", "a/b/", "ü/", // fine
		"-x", "/x", "a b/", "a~", "a^", "a:", "a?", "a*", "a[", `a\`, "a\t", "a..b", "a//", "a@{", ".a/", "a/.b/", "a.lock/", // not
	} {
		ok, err := g.ok(context.Background(), "check-ref-format", "--branch", prefix+"x")
		require.NoError(t, err)
		assert.Equal(t, ok, CheckBranchPrefix(prefix) == nil, "prefix %q: git says ok=%v", prefix, ok)
	}
}

func TestALongBranchPrefixIsRefused(t *testing.T) {
	long := make([]byte, MaxBranchPrefix+1)
	for i := range long {
		long[i] = 'a'
	}
	require.Error(t, CheckBranchPrefix(string(long)))
}

// Baton's prefix names a branch where the repository sets none ("" for none); the repository's own wins.
func TestTheBranchPrefixOptionYieldsToTheRepositorys(t *testing.T) {
	r := newRepo(t)
	mine, none := "me/", ""
	require.Equal(t, "me/fix-it", create(t, r.root, CreateOptions{Prompt: "Fix it", BranchPrefix: &mine}).Branch)
	require.Equal(t, "plain", create(t, r.root, CreateOptions{Prompt: "Plain", BranchPrefix: &none}).Branch)
	gittest.Git(t, r.root, "config", "baton.branchPrefix", "repo/")
	require.Equal(t, "repo/theirs", create(t, r.root, CreateOptions{Prompt: "Theirs", BranchPrefix: &mine}).Branch)
}
