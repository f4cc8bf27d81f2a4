package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/baton-console/baton/app/protocol"
)

const sessionsUsage = "baton sessions [--cwd DIR] [--limit N] [--json]"

// RunSessions lists stored sessions across projects (or in one folder), newest first.
func RunSessions(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("sessions", sessionsUsage, env.Stderr)
	cwd := fs.String("cwd", "", "only sessions of this project folder")
	limit := fs.Int("limit", 0, "at most this many (0: all)")
	asJSON := fs.Bool("json", false, "print a JSON array")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(words) > 0 {
		return usageError(env.Stderr, sessionsUsage, "unexpected argument %q", words[0])
	}
	if *limit < 0 {
		return usageError(env.Stderr, sessionsUsage, "--limit must be 0 or more")
	}
	stderr := env.Stderr // raw: the index's progress line draws itself in place
	env = env.forTerminal(*asJSON)
	dir := *cwd
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if fi, statErr := os.Stat(abs); err != nil || statErr != nil || !fi.IsDir() {
			return usageError(env.Stderr, sessionsUsage, "--cwd %s is not an existing folder", dir)
		}
		dir = abs
	}
	stopIndexLine := watchIndex(env, stderr)
	list, err := env.Sessions.ListSessions(ctx, dir, *limit)
	stopIndexLine()
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	if *asJSON {
		if list == nil {
			list = []protocol.SessionInfo{}
		}
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(list)
		return ExitOK
	}
	if len(list) == 0 {
		fmt.Fprintln(env.Stdout, "No sessions yet. Start one with: baton exec \"your prompt\"")
		return ExitOK
	}
	// Cells are made safe before the tabwriter measures them (env.Stdout is safe too, but would misalign them).
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tUPDATED\tTITLE\tFOLDER")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Session, ago(time.UnixMilli(int64(s.LastModified))), oneLine(safeText(s.Title), 60), safeText(s.Cwd))
	}
	_ = tw.Flush()
	return ExitOK
}

func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	default:
		return t.Local().Format("2006-01-02")
	}
}
