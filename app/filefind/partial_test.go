//go:build !windows

package filefind_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/filefind"
)

// slowGit puts a stand-in git first on PATH: `ls-files --cached` prints two tracked files at once, then waits
// until the test opens the returned gate (a FIFO) before it prints a third and ends, as a big repository's
// listing would still be running; `ls-files --others` prints one untracked file.
func slowGit(t *testing.T) (gate string) {
	t.Helper()
	dir := t.TempDir()
	gate = filepath.Join(dir, "gate")
	require.NoError(t, syscall.Mkfifo(gate, 0o600))
	script := "#!/bin/sh\ncase \"$*\" in\n" +
		"*--cached*) printf 'src/a.go\\0src/b.go\\0'; cat '" + gate + "' >/dev/null; printf 'late/c.go\\0' ;;\n" +
		"*--others*) printf 'new.txt\\0' ;;\n" +
		"*) exit 1 ;;\nesac\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755))
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return gate
}

func TestAFirstListingStillBeingMadeAnswersWithWhatItHasThenTheWhole(t *testing.T) {
	gate := slowGit(t)
	root := t.TempDir()
	ctx := context.Background()
	x := filefind.NewIndex(time.Hour)
	// Waits (for git's output, not for a time) until what the stand-in printed first is listed.
	var partial filefind.Listing
	require.Eventually(t, func() bool {
		_, l, err := x.FindSoon(ctx, root, "", 10, 0)
		partial = l
		return err == nil && len(l.Entries) == 4
	}, 10*time.Second, 5*time.Millisecond)
	assert.True(t, partial.Partial)
	assert.ElementsMatch(t, []string{"src/", "src/a.go", "src/b.go", "new.txt"}, listed(partial))

	got, l, err := x.FindSoon(ctx, root, "go", 10, 0)
	require.NoError(t, err)
	assert.True(t, l.Partial)
	assert.Equal(t, []string{"src/a.go", "src/b.go"}, paths(got), "ranked as a whole listing would be")
	got, _, err = x.FindSoon(ctx, root, "", 2, 0)
	require.NoError(t, err)
	assert.Equal(t, []string{"src/", "new.txt"}, paths(got), "the shallowest first, though the entries are not sorted yet")

	// The rest comes once git goes on; asking for the complete listing waits for it.
	require.NoError(t, os.WriteFile(gate, nil, 0o600))
	got, l, err = x.Find(ctx, root, "go", 10)
	require.NoError(t, err)
	assert.False(t, l.Partial)
	assert.True(t, l.Git)
	assert.Equal(t, []string{"src/a.go", "src/b.go", "late/c.go"}, paths(got))
	assert.Equal(t, []string{"late/", "new.txt", "src/", "late/c.go", "src/a.go", "src/b.go"}, listed(l))
	_, l, err = x.FindSoon(ctx, root, "go", 10, 0)
	require.NoError(t, err)
	assert.False(t, l.Partial, "once in, the whole listing answers")
}
