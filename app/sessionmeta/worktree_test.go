package sessionmeta

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A file written before worktrees were recorded still loads, and one with a worktree reads back whole.
func TestAWorktreeIsRecordedBesideTheOldFields(t *testing.T) {
	dir := t.TempDir()
	old := `{"version":1,"sessions":{"a":{"pinned":true},"b":{"forkOf":"a"}}}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, FileName), []byte(old), 0o600))
	s, err := Open(dir)
	require.NoError(t, err)
	require.Equal(t, Meta{Pinned: true}, s.Get("a"))
	require.True(t, s.Get("a").Worktree.IsZero())

	wt := Worktree{Repo: "/r", Path: "/r/.claude/worktrees/x", Branch: "baton/x", Base: "main"}
	_, err = s.Update("c", func(m *Meta) { m.Worktree = wt })
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(data), `"worktree"`), "a session without a worktree writes no worktree key")

	again, err := Open(dir)
	require.NoError(t, err)
	require.Equal(t, Meta{Worktree: wt}, again.Get("c"))
	require.Equal(t, Meta{ForkOf: "a"}, again.Get("b"))
}

// Two processes share the data dir (the window, and `baton exec --worktree` recording its worktree): an update in
// one keeps what the other saved since it opened the store.
func TestAnUpdateKeepsWhatAnotherStoreSaved(t *testing.T) {
	dir := t.TempDir()
	window, err := Open(dir)
	require.NoError(t, err)
	exec, err := Open(dir)
	require.NoError(t, err)
	wt := Worktree{Repo: "/r", Path: "/w", Branch: "b", Base: "main"}
	_, err = exec.Update("s1", func(m *Meta) { m.Worktree = wt })
	require.NoError(t, err)
	_, err = window.Update("s2", func(m *Meta) { m.Pinned = true })
	require.NoError(t, err)

	third, err := Open(dir)
	require.NoError(t, err)
	require.Equal(t, wt, third.Get("s1").Worktree, "the window's save did not drop the exec's record")
	require.True(t, third.Get("s2").Pinned)
}
