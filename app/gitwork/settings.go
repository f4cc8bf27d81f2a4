package gitwork

import (
	"context"
	"strings"
)

// Settings are a repository's own choices for session worktrees, kept in its git config (`git config
// baton.worktreeDir ../wt`), so they travel with the clone's local config and need no file of Baton's:
//
//	baton.worktreeDir    where worktrees go (relative to the main checkout; default .claude/worktrees)
//	baton.branchPrefix   the prefix of a new session branch (default baton/)
//	baton.setup          a shell command run in each new worktree (npm ci, make deps, …)
type Settings struct {
	Dir          string
	BranchPrefix string
	Setup        string
}

// DefaultDir is where worktrees go, relative to the main checkout: Claude Code's own convention.
const DefaultDir = ".claude/worktrees"

// DefaultBranchPrefix starts the name of a session's new branch.
const DefaultBranchPrefix = "baton/"

// LoadSettings reads repo's settings, defaults filled in: prefix where it sets no baton.branchPrefix (Baton's
// own setting; DefaultBranchPrefix unless the person chose another).
func LoadSettings(ctx context.Context, repo Repo, prefix string) (Settings, error) {
	s := Settings{Dir: DefaultDir, BranchPrefix: prefix}
	out, err := gitAt(repo.Root).run(ctx, "config", "-z", "--get-regexp", `^baton\.`)
	if exitCode(err) == 1 {
		return s, nil // nothing set
	}
	if err != nil {
		return s, err
	}
	for _, entry := range splitZ(out) {
		key, value, _ := strings.Cut(entry, "\n")
		switch strings.ToLower(key) {
		case "baton.worktreedir":
			s.Dir = value
		case "baton.branchprefix":
			s.BranchPrefix = value
		case "baton.setup":
			s.Setup = value
		}
	}
	return s, nil
}
