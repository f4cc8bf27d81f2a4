package gitwork

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Check is one check of a pull request as gh reports it.
type Check struct {
	Name   string `json:"name"`
	State  string `json:"state"`          // gh's state: SUCCESS, FAILURE, PENDING, …
	Bucket string `json:"bucket"`         // gh's grouping: pass, fail, pending, skipping or cancel
	Link   string `json:"link,omitempty"` // the check's page
}

// Checks are a pull request's checks, or what is left for the person to run to see them.
type Checks struct {
	Checks   []Check  `json:"checks"`
	Commands []string `json:"commands,omitempty"` // without a signed-in gh: the exact commands to run
	Reason   string   `json:"reason,omitempty"`   // why Commands are left to run
}

// checkFields are the fields asked of `gh pr checks --json`.
const checkFields = "name,state,bucket,link"

// PRChecks reads the checks of the session branch's pull request with the person's gh (`gh pr checks --json`),
// when gh is on PATH and signed in; else it says the command that shows them. A pull request without checks
// (yet) has none.
func PRChecks(ctx context.Context, wt Worktree) (Checks, error) {
	args := []string{"pr", "checks", wt.Branch, "--json", checkFields}
	res := Checks{Checks: []Check{}}
	gh, left := ghReady(ctx, wt, []string{"pr", "checks", wt.Branch})
	if left != nil {
		res.Reason, res.Commands = left.Reason, left.Commands
		return res, nil
	}
	out, msg, runErr := ghRun(ctx, gh, wt, args)
	// gh exits non-zero while checks are pending (8) or failing (1) and still prints them: the output decides.
	if trimmed := bytes.TrimSpace(out); len(trimmed) > 0 {
		if err := json.Unmarshal(trimmed, &res.Checks); err != nil {
			return res, fmt.Errorf("read gh pr checks' answer: %w", err)
		}
		return res, nil
	}
	if strings.Contains(msg, "no checks reported") {
		return res, nil
	}
	if runErr == nil {
		return res, nil
	}
	return res, fmt.Errorf("gh pr checks: %s (%w)", msg, runErr)
}
