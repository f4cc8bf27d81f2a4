package sessionmeta

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPinsArchivesAndForksSurviveAReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	require.NoError(t, err)
	require.Equal(t, Meta{}, s.Get("a"))

	_, err = s.Update("a", func(m *Meta) { m.Pinned = true })
	require.NoError(t, err)
	_, err = s.Update("b", func(m *Meta) { m.Archived = true })
	require.NoError(t, err)
	got, err := s.Update("c", func(m *Meta) { m.ForkOf = "a" })
	require.NoError(t, err)
	require.Equal(t, Meta{ForkOf: "a"}, got)

	again, err := Open(dir)
	require.NoError(t, err)
	require.Equal(t, Meta{Pinned: true}, again.Get("a"))
	require.Equal(t, Meta{Archived: true}, again.Get("b"))
	require.Equal(t, Meta{ForkOf: "a"}, again.Get("c"))

	// Unpinning clears the record; nothing is left behind but the file itself.
	_, err = again.Update("a", func(m *Meta) { m.Pinned = false })
	require.NoError(t, err)
	third, err := Open(dir)
	require.NoError(t, err)
	require.Equal(t, Meta{}, third.Get("a"))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file may be left beside the store")
	require.Equal(t, FileName, entries[0].Name())
}

func TestADamagedFileIsRefusedAndKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	require.NoError(t, os.WriteFile(path, []byte(`{"version":1,"sessions":{`), 0o600))
	s, err := Open(dir)
	require.ErrorContains(t, err, "is damaged")
	require.ErrorContains(t, err, "Move it aside")
	var unreadable *UnreadableError
	require.ErrorAs(t, err, &unreadable)
	require.NotNil(t, s, "a store that says why is returned with the error")
	_, err = s.Update("s1", func(m *Meta) { m.Pinned = true })
	require.ErrorAs(t, err, &unreadable, "every change says the file is damaged")
	require.Equal(t, Meta{}, s.Get("s1"))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, `{"version":1,"sessions":{`, string(data), "a damaged file is never overwritten")

	require.NoError(t, os.WriteFile(path, []byte(`{"version":9,"sessions":{}}`), 0o600))
	_, err = Open(dir)
	require.ErrorContains(t, err, "format 9")
}

func TestAFailedSaveLeavesTheRecordAsItWas(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs a directory the process cannot write to")
	}
	dir := t.TempDir()
	s, err := Open(dir)
	require.NoError(t, err)
	_, err = s.Update("a", func(m *Meta) { m.Pinned = true })
	require.NoError(t, err)

	require.NoError(t, os.Chmod(dir, 0o500))
	t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
	old, err := s.Update("a", func(m *Meta) { m.Archived = true })
	require.ErrorContains(t, err, "save the pinned and archived sessions")
	require.Equal(t, Meta{Pinned: true}, old)
	require.Equal(t, Meta{Pinned: true}, s.Get("a"), "memory keeps what the disk holds")
	_, err = s.Update("new", func(m *Meta) { m.Pinned = true })
	require.Error(t, err)
	require.Equal(t, Meta{}, s.Get("new"))
}

func TestUpdateNeedsASession(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	_, err = s.Update("", func(m *Meta) { m.Pinned = true })
	require.Error(t, err)
}
