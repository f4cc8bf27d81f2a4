package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/receipts"
)

const historyUsage = "baton history [--cwd DIR] [--json] SESSION_ID"

// historyPage is how many events one read asks for.
const historyPage = 2000

// RunHistory prints a stored session's history, mapped exactly as live events are.
func RunHistory(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("history", historyUsage, env.Stderr)
	cwd := fs.String("cwd", "", "the session's project folder (faster lookup; optional)")
	asJSON := fs.Bool("json", false, "print every event as one JSON line")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(words) != 1 {
		return usageError(env.Stderr, historyUsage, "give exactly one session id (see baton sessions)")
	}
	if !protocol.ValidSessionID(words[0]) {
		return usageError(env.Stderr, historyUsage, "%q is not a session id (a UUID; see baton sessions)", words[0])
	}
	stopIndexLine := watchIndex(env, env.Stderr)
	defer stopIndexLine()
	env = env.forTerminal(*asJSON)
	dir := *cwd
	if dir != "" {
		if dir, err = filepath.Abs(dir); err != nil {
			return usageError(env.Stderr, historyUsage, "--cwd: %v", err)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return usageError(env.Stderr, historyUsage, "--cwd %s is not an existing folder", dir)
		}
	}
	// The newest page first (it says how many there are), then the older ones from the start, each printed as it
	// comes: a long session never has to fit one protocol line, nor its whole history memory.
	newest, err := env.Sessions.History(ctx, words[0], dir, nil, historyPage)
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	stopIndexLine()
	turns, err := env.Sessions.Receipts(words[0])
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
	}
	if len(newest.Events) == 0 && len(turns) == 0 {
		fmt.Fprintf(env.Stderr, "baton: no session %s was found (see baton sessions)\n", words[0])
		return ExitFailure
	}
	p := newEventPrinter(env.Stdout, *asJSON)
	if p.transcript != nil {
		p.transcript.history = true
	}
	for from := 0; from < newest.Start; {
		before := min(from+historyPage, newest.Start)
		page, err := env.Sessions.History(ctx, words[0], dir, &before, before-from)
		if err != nil {
			fmt.Fprintf(env.Stderr, "baton: %v\n", err)
			return ExitFailure
		}
		for _, ev := range page.Events {
			p.print(ev)
		}
		next := page.Start + len(page.Events)
		if next <= from {
			break // the session shrank while it was read
		}
		from = next
	}
	for _, ev := range newest.Events {
		p.print(ev)
	}
	p.finish()
	if !*asJSON {
		printReceipts(env.Stdout, turns)
	}
	return ExitOK
}

// printReceipts lists the turns Baton ran in the session, from their durable receipts: what became of each (a
// turn whose Baton process died reads "failed: host_exited") and what it cost.
func printReceipts(w io.Writer, turns []receipts.Receipt) {
	if len(turns) == 0 {
		return
	}
	fmt.Fprintf(w, "\nTurns run by Baton (from their receipts):\n")
	for _, r := range turns {
		outcome := "running"
		if r.Ended {
			outcome = string(r.Outcome)
		}
		switch {
		case r.Code == receipts.HostExited:
			outcome += ": host_exited (Baton stopped during this turn)"
		case r.Code != "":
			outcome += ": " + r.Code
		case r.Forced:
			outcome += " (force-stopped)"
		}
		line := fmt.Sprintf("  %s  turn %s  %s", r.AcceptedAt.Local().Format("2006-01-02 15:04:05"), r.Turn, outcome)
		if r.Outcome == receipts.OutcomeCompleted {
			line += fmt.Sprintf(" · %s · $%.4f · %d tokens", (time.Duration(r.DurationMs) * time.Millisecond).Round(100*time.Millisecond), r.CostUSD, r.OutputTokens)
		}
		fmt.Fprintln(w, line)
	}
}
