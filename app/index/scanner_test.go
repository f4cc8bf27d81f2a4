package index

import (
	"os"
	"path/filepath"
	"testing"

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
