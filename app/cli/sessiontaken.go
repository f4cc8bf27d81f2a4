package cli

import (
	"os"
	"path/filepath"

	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/sessionmeta"
)

// sessionTaken says why id cannot name a new session ("" when it is free). Claude Code would append a new
// conversation to the stored one's transcript, mixing two sessions in one record, so a taken id is refused before
// anything starts. Baton's own record counts too: a fork's transcript is written only with its first turn.
func sessionTaken(id string, env Env) string {
	if env.Meta != nil && env.Meta.Get(id) != (sessionmeta.Meta{}) {
		return "Baton already knows a session by it"
	}
	paths, err := auth.ResolvePaths(os.Environ())
	if err != nil {
		return "" // no config folder: nothing is stored under any id
	}
	if found, _ := filepath.Glob(filepath.Join(paths.ConfigDir, "projects", "*", id+".jsonl")); len(found) > 0 {
		return "a stored session has it"
	}
	return ""
}
