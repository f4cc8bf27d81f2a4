package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/protocol"
)

const changesUsage = "baton changes [--cwd DIR] [--json] SESSION_ID"

// ChangesReport is `baton changes --json`: the files a session changed against its base.
type ChangesReport struct {
	Session  string               `json:"session"`
	Folder   string               `json:"folder"`             // the worktree, or the session's folder
	Base     string               `json:"base"`               // the worktree's base; "HEAD" for a plain folder
	Worktree *gitwork.Worktree    `json:"worktree,omitempty"` // when the session runs in one
	Files    []gitwork.FileChange `json:"files"`
}

// RunChanges prints the files a session changed: in its worktree against the base it branched from, or, for a
// session not in a worktree, its folder's changes against HEAD.
func RunChanges(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("changes", changesUsage, env.Stderr)
	cwd := fs.String("cwd", "", "a session not in a worktree: its folder (default: the one it was started in)")
	asJSON := fs.Bool("json", false, "print a JSON object")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(words) != 1 {
		return usageError(env.Stderr, changesUsage, "give exactly one session id (see baton sessions)")
	}
	id := words[0]
	if !protocol.ValidSessionID(id) {
		return usageError(env.Stderr, changesUsage, "%q is not a session id (a UUID; see baton sessions)", id)
	}
	env = env.forTerminal(*asJSON)
	rep := ChangesReport{Session: id, Base: "HEAD"}
	target := gitwork.Target{}
	if wt, ok := recordedWorktree(env, id); ok {
		rep.Worktree, rep.Folder, rep.Base = &wt, wt.Path, wt.Base
		target = wt.Target()
	} else {
		if rep.Folder, err = sessionFolder(ctx, env, id, *cwd); err != nil {
			fmt.Fprintf(env.Stderr, "baton: %v\n", err)
			return ExitFailure
		}
		target.Dir = rep.Folder
	}
	if rep.Files, err = gitwork.Changes(ctx, target); err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	if *asJSON {
		if rep.Files == nil {
			rep.Files = []gitwork.FileChange{}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
		return ExitOK
	}
	printChanges(env, rep)
	return ExitOK
}

func printChanges(env Env, rep ChangesReport) {
	if len(rep.Files) == 0 {
		fmt.Fprintf(env.Stdout, "No changes in %s against %s.\n", rep.Folder, rep.Base)
		return
	}
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	added, deleted := 0, 0
	for _, f := range rep.Files {
		counts := fmt.Sprintf("+%d\t-%d", f.Added, f.Deleted)
		if f.Binary {
			counts = "binary\t"
		}
		path := safeText(f.Path)
		if f.OldPath != "" {
			path = safeText(f.OldPath) + " → " + path
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Status, counts, path)
		added, deleted = added+f.Added, deleted+f.Deleted
	}
	_ = tw.Flush()
	fmt.Fprintf(env.Stdout, "%d files, +%d -%d against %s\n", len(rep.Files), added, deleted, rep.Base)
}

// sessionFolder is the folder a session not in a worktree runs in: --cwd, else the one it was stored with.
func sessionFolder(ctx context.Context, env Env, id, cwd string) (string, error) {
	if cwd != "" {
		abs, err := filepath.Abs(cwd)
		if fi, statErr := os.Stat(abs); err != nil || statErr != nil || !fi.IsDir() {
			return "", fmt.Errorf("--cwd %s is not an existing folder", cwd)
		}
		return abs, nil
	}
	list, err := env.Sessions.ListSessions(ctx, "", 0)
	if err != nil {
		return "", err
	}
	for _, s := range list {
		if s.Session == id && s.Cwd != "" {
			return s.Cwd, nil
		}
	}
	return "", fmt.Errorf("no stored session %s with a folder (see baton sessions), or give its folder with --cwd", id)
}
