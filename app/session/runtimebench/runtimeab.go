//go:build unix

package main

import (
	"fmt"
	"strings"
	"time"
)

// sidecarEnvAB: the sidecar's CPU over the burst with the JavaScript runtime's options as Baton sets them (A) and
// with -sidecar-env added (B), each against the baseline node run beside it, interleaved A, baseline, B per round:
// to judge a runtime option against the machine's drift rather than against another run's figures. The variables
// reach claude too (they are the person's own, to the host), whose CPU no ratio here counts. With -after-idle each
// measured reply is a session's second, after a short turn and that long idle (the sidecar's page trim, issue 32).
func (b *bench) sidecarEnvAB() error {
	if b.sidecarEnv == "" {
		return fmt.Errorf("give the options to try with -sidecar-env NAME=VALUE[,NAME=VALUE]")
	}
	xa, err := b.connect("ab-a", "0")
	if err != nil {
		return err
	}
	defer xa.close()
	xb, err := b.connectWith("ab-b", "0", strings.Split(b.sidecarEnv, ","))
	if err != nil {
		return err
	}
	defer xb.close()
	var ra, rb []float64
	var sa, sb, ha, hb, la, lb []time.Duration
	var ea, eb []float64
	var ta, tb []time.Duration
	for i := 0; i < b.pairs; i++ {
		a, err := b.deltaRunAfter(xa.s, xa.c, xa.project, "[deltas]", b.deltas, b.afterIdle)
		if err != nil {
			return err
		}
		base, err := b.baselineDeltas(xa.home, xa.project)
		if err != nil {
			return err
		}
		bb, err := b.deltaRunAfter(xb.s, xb.c, xb.project, "[deltas]", b.deltas, b.afterIdle)
		if err != nil {
			return err
		}
		ra, rb = append(ra, ratio(a.cpu.sidecar, base.cpu)), append(rb, ratio(bb.cpu.sidecar, base.cpu))
		sa, sb = append(sa, a.cpu.sidecar), append(sb, bb.cpu.sidecar)
		ta, tb = append(ta, a.turnCPU.sidecar), append(tb, bb.turnCPU.sidecar)
		ha, hb = append(ha, a.cpu.host), append(hb, bb.cpu.host)
		ea, eb = append(ea, float64(a.tally.events)), append(eb, float64(bb.tally.events))
		_, pa := a.tally.percentiles()
		_, pb := bb.tally.percentiles()
		la, lb = append(la, pa), append(lb, pb)
	}
	fmt.Printf("sidecar CPU over the baseline node's, %d rounds: as built %.2f× (%s), with %s %.2f× (%s); sidecar medians %s vs %s\n",
		len(ra), spread(ra).median, spread(ra), b.sidecarEnv, spread(rb).median, spread(rb), ms(median(sa)), ms(median(sb)))
	fmt.Printf("  host CPU medians %s vs %s; events per reply %.0f vs %.0f; burst p99 %s vs %s\n",
		ms(median(ha)), ms(median(hb)), spread(ea).median, spread(eb).median, ms(median(la)), ms(median(lb)))
	fmt.Printf("  sidecar CPU from the prompt to the turn's end, medians %s vs %s\n", ms(median(ta)), ms(median(tb)))
	return nil
}
