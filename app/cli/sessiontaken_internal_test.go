package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/stretchr/testify/require"
)

// An id is taken by a stored transcript in any project folder, or by a session only Baton knows yet (a fork whose
// transcript is not written); a free id is free.
func TestASessionIdIsTakenByATranscriptOrBatonsRecord(t *testing.T) {
	config := t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", config)
	store, err := sessionmeta.Open(t.TempDir())
	require.NoError(t, err)
	env := Env{Meta: store}
	const stored, known, free = "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "1b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "2b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	project := filepath.Join(config, "projects", "-elsewhere")
	require.NoError(t, os.MkdirAll(project, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(project, stored+".jsonl"), []byte("{}\n"), 0o600))
	_, err = store.Update(known, func(m *sessionmeta.Meta) { m.Title = "Fork of something" })
	require.NoError(t, err)

	require.Contains(t, sessionTaken(stored, env), "a stored session has it")
	require.Contains(t, sessionTaken(known, env), "Baton already knows a session by it")
	require.Empty(t, sessionTaken(free, env))
}
