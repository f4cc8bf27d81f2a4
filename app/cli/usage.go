package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/baton-console/baton/app/index"
)

const usageUsage = "baton usage [--since DATE] [--until DATE] [--by day|week|month|project|model|session] [--json]"

// UsageSource totals the usage of every stored session, once every transcript is indexed.
type UsageSource interface {
	Usage(ctx context.Context, q index.UsageQuery) (index.UsageReport, error)
}

// RunUsage prints tokens (input, output, cache read and written) and cost by period, project, model or session,
// from the transcripts' own usage records; cost is what Claude Code reported where it did, else an estimate from
// the price table Baton carries (marked, with the table's date).
func RunUsage(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("usage", usageUsage, env.Stderr)
	since := fs.String("since", "", "only usage on or after this day (YYYY-MM-DD) or time (RFC 3339)")
	until := fs.String("until", "", "only usage before this day (YYYY-MM-DD) or time (RFC 3339)")
	by := fs.String("by", "day", "group by day, week, month, project, model or session")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	words, err := parseInterspersed(fs, args)
	if err != nil {
		return ExitUsage
	}
	if len(words) > 0 {
		return usageError(env.Stderr, usageUsage, "unexpected argument %q", words[0])
	}
	q := index.UsageQuery{By: index.UsageBy(*by)}
	switch q.By {
	case index.UsageByDay, index.UsageByWeek, index.UsageByMonth, index.UsageByProject, index.UsageByModel, index.UsageBySession:
	default:
		return usageError(env.Stderr, usageUsage, "--by %q: say day, week, month, project, model or session", *by)
	}
	if q.Since, err = parseDay(*since); err != nil {
		return usageError(env.Stderr, usageUsage, "--since %v", err)
	}
	if q.Until, err = parseDay(*until); err != nil {
		return usageError(env.Stderr, usageUsage, "--until %v", err)
	}
	if env.Usage == nil {
		fmt.Fprintln(env.Stderr, "baton: usage needs Baton's session index, which could not be opened (see the log; baton doctor)")
		return ExitFailure
	}
	stderr := env.Stderr
	env = env.forTerminal(*asJSON)
	stopIndexLine := watchIndex(env, stderr)
	rep, err := env.Usage.Usage(ctx, q)
	stopIndexLine()
	if err != nil {
		fmt.Fprintf(env.Stderr, "baton: %v\n", err)
		return ExitFailure
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
		return ExitOK
	}
	printUsage(env, rep)
	return ExitOK
}

func printUsage(env Env, rep index.UsageReport) {
	tw := tabwriter.NewWriter(env.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tINPUT\tOUTPUT\tCACHE READ\tCACHE WRITE\tCOST USD\t\n", safeText(string(rep.By)))
	for _, r := range append(rep.Rows, total(rep.Total)) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t\n", oneLine(safeText(r.Key), 60), r.Input, r.Output, r.CacheRead, r.CacheWrite, cost(r))
	}
	_ = tw.Flush()
	if rep.Total.EstimatedUSD > 0 {
		fmt.Fprintf(env.Stdout, "~ an estimate from Baton's price table of %s (SDK %s); the rest Claude Code reported.\n", rep.PricesDate, rep.PricesSDK)
	}
	if rep.Total.UnpricedTokens > 0 {
		fmt.Fprintf(env.Stdout, "%d tokens are of models the price table does not know: in no cost.\n", rep.Total.UnpricedTokens)
	}
}

func total(r index.UsageRow) index.UsageRow {
	r.Key = "total"
	return r
}

// cost is a row's cost, marked "~" when part of it is an estimate.
func cost(r index.UsageRow) string {
	if r.EstimatedUSD > 0 {
		return fmt.Sprintf("~%.4f", r.CostUSD)
	}
	return fmt.Sprintf("%.4f", r.CostUSD)
}
