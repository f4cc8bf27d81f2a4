package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// The scan looks for a session's subagents folder only where the project holds something of the session's name
// that is no file: a folder, or a link to one.
func TestScanFindsSubagentsInAFolderOrThroughALink(t *testing.T) {
	projects := t.TempDir()
	project := filepath.Join(projects, "p")
	elsewhere := t.TempDir()
	write := func(path string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		require.NoError(t, os.WriteFile(path, []byte("{}\n"), 0o600))
	}
	write(filepath.Join(project, sessA+".jsonl"))
	write(filepath.Join(project, sessA, "subagents", "agent-1.jsonl"))
	write(filepath.Join(project, sessB+".jsonl"))
	write(filepath.Join(elsewhere, "subagents", "agent-2.jsonl"))
	require.NoError(t, os.Symlink(elsewhere, filepath.Join(project, sessB)))
	const lone = "5e551011-0000-4000-8000-0000000000cc"
	write(filepath.Join(project, lone+".jsonl"))

	found, err := scanAll(projects)
	require.NoError(t, err)
	require.Len(t, found, 3)
	subs := func(id string) []string {
		var out []string
		for _, s := range found[id].subs {
			out = append(out, filepath.Base(s.path))
		}
		return out
	}
	require.Equal(t, []string{"agent-1.jsonl"}, subs(sessA))
	require.Equal(t, []string{"agent-2.jsonl"}, subs(sessB), "through the link")
	require.Empty(t, subs(lone))
}

// startingMapper is the stand-in with a process to start ahead of its calls, as SidecarMapper's: it counts the
// starts and the listings made before each.
type startingMapper struct {
	*standInMapper
	starts []int
}

func (m *startingMapper) Start(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.starts = append(m.starts, m.lists)
	return nil
}

func (m *startingMapper) started() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]int(nil), m.starts...)
}

// The first scan of an index this process created is followed by a listing of every session found, so the mapper
// starts during it; an index opened again, or a new install's empty projects folder, starts nothing ahead.
func TestACreatedIndexStartsItsMapperWhileItScans(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	open := func(m Mapper) *Index {
		ix, err := Open(ctx, Options{Dir: f.data, ProjectsDir: f.projects, Mapper: m, Logger: zerolog.Nop()})
		require.NoError(t, err)
		return ix
	}
	list := func(ix *Index) {
		_, err := ix.Sessions(ctx, "", 0)
		require.NoError(t, err)
	}

	empty := &startingMapper{standInMapper: newStandIn("v1", f.projects)}
	ix := open(empty)
	list(ix)
	require.Empty(t, empty.started(), "no projects folder: nothing will be listed")
	require.NoError(t, ix.Close())
	require.NoError(t, os.RemoveAll(f.data))

	f.write(f.path("p", sessA), lines("a", 0, 2), false)
	m := &startingMapper{standInMapper: newStandIn("v1", f.projects)}
	ix = open(m)
	list(ix)
	list(ix)
	require.Equal(t, []int{0}, m.started(), "once, ahead of the first listing")
	require.Equal(t, 1, m.lists)
	require.NoError(t, ix.Close())

	f.write(f.path("p", sessB), lines("b", 0, 2), false)
	again := &startingMapper{standInMapper: newStandIn("v1", f.projects)}
	ix = open(again)
	list(ix)
	require.Empty(t, again.started(), "the index was there: it lists what changed, if anything")
	require.Equal(t, 1, again.lists)
	require.NoError(t, ix.Close())
}
