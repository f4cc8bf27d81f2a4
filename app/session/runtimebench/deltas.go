//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
)

// deltaPiece is the text of one streamed delta: the scripted reply is deltaPiece repeated b.deltas times, one per
// text_delta event.
const deltaPiece = "word "

// deltaTally follows the streamed text as a client receives it. The sidecar may merge pieces that waited together
// into one event (sidecar/src/protocol/coalesce.ts), stamped with its first piece's mapping time; each piece it
// carries is counted with that stamp, so the latency read off it is never better than the piece's own.
type deltaTally struct {
	first, last time.Time
	pieces      int
	events      int
	added       []time.Duration
}

func (d *deltaTally) add(at time.Time, ev activity.Event) {
	if ev.Kind != activity.MessageDelta || ev.Block != activity.MessageBlockText {
		return
	}
	n := strings.Count(ev.Text, deltaPiece)
	if n == 0 {
		return
	}
	if d.first.IsZero() {
		d.first = at
	}
	d.last, d.pieces, d.events = at, d.pieces+n, d.events+1
	for range n {
		d.added = append(d.added, at.Sub(ev.Time))
	}
}

func (d *deltaTally) percentiles() (p50, p99 time.Duration) {
	return percentiles(d.added)
}

// startAndRest is the p99 of the stream's first tenth of pieces and of the other nine tenths: where the tail is.
func (d *deltaTally) startAndRest() (start, rest time.Duration) {
	cut := len(d.added) / 10
	if cut == 0 { // a reply of fewer than ten pieces (-deltas) has no first tenth
		_, rest = percentiles(d.added)
		return rest, rest
	}
	_, start = percentiles(d.added[:cut])
	_, rest = percentiles(d.added[cut:])
	return start, rest
}

func percentiles(added []time.Duration) (p50, p99 time.Duration) {
	s := slices.Clone(added)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)*99/100]
}

func (d *deltaTally) complete(want int) error {
	if d.pieces != want {
		return fmt.Errorf("the client received %d of the %d streamed pieces", d.pieces, want)
	}
	return nil
}

// streamedDeltas: b.deltas text deltas, first → last as a console client reads them over the WebSocket, against
// the baseline's own iteration (alternating, b.runs of each, medians); the latency each delta gains between the
// sidecar mapping it and the client; and the CPU each process spent while the reply streamed.
func (b *bench) streamedDeltas() error {
	x, err := b.connect("deltas", "0")
	if err != nil {
		return err
	}
	defer x.close()
	home, project, s, c := x.home, x.project, x.s, x.c
	var batonSpans, baseSpans, p50s, p99s, starts, rests []time.Duration
	var last deltaRun
	for i := 0; i < b.runs; i++ {
		run, err := b.deltaRun(s, c, project, "[deltas]", b.deltas)
		if err != nil {
			return err
		}
		base, err := b.baselineDeltas(home, project)
		if err != nil {
			return err
		}
		p50, p99 := run.tally.percentiles()
		batonSpans, baseSpans = append(batonSpans, run.tally.last.Sub(run.tally.first)), append(baseSpans, base.span)
		p50s, p99s = append(p50s, p50), append(p99s, p99)
		start, rest := run.tally.startAndRest()
		starts, rests = append(starts, start), append(rests, rest)
		last = run
		last.base = base
	}
	r := ratio(median(batonSpans), median(baseSpans))
	fmt.Printf("%d deltas, first → last (median of %d): WebSocket client %s, baseline iteration %s → %.2f× (goal ≤ 1.10×: %s)\n",
		b.deltas, b.runs, ms(median(batonSpans)), ms(median(baseSpans)), r, verdict(r <= 1.10))
	fmt.Printf("  each Baton run over the baseline run after it: %s\n", pairRatios(batonSpans, baseSpans))
	fmt.Printf("  added latency per delta, sidecar stamp → client (median of the runs' figures): p50 %s, p99 %s (goal p99 < 5 ms: %s); p99 per run %v\n",
		ms(median(p50s)), ms(median(p99s)), verdict(median(p99s) < 5*time.Millisecond), msList(p99s))
	fmt.Printf("  p99 of the stream's first tenth of pieces %s, of the other nine tenths %s (medians of the runs)\n",
		ms(median(starts)), ms(median(rests)))
	fmt.Printf("  last run: the client received the deltas in %d events; CPU from the first delta to the last: host %s, sidecar %s, claude %s; the baseline's node (first delta to its result) %s\n",
		last.tally.events, ms(last.cpu.host), ms(last.cpu.sidecar), ms(last.cpu.claude), ms(last.base.cpu))
	return nil
}

// deltaRun is one streamed reply as the WebSocket client saw it.
type deltaRun struct {
	tally deltaTally
	cpu   cpuSpent
	base  baselineRun
}

// deltaRun streams one reply to prompt, which the scripted API answers with want text deltas.
func (b *bench) deltaRun(s *served, c *client, project, prompt string, want int) (deltaRun, error) {
	ctx, cancel := deadline()
	defer cancel()
	id, err := c.startSession(ctx, project)
	if err != nil {
		return deltaRun{}, err
	}
	turn, err := c.prompt(ctx, id, prompt)
	if err != nil {
		return deltaRun{}, err
	}
	var run deltaRun
	var before cpuSpent
	for {
		t, err := c.until(ctx, func(ev activity.Event) bool { return ev.Turn == turn })
		if err != nil {
			return deltaRun{}, err
		}
		had := run.tally.pieces
		run.tally.add(t.at, t.ev)
		if had == 0 && run.tally.pieces > 0 {
			before = cpuByRole(s.pid(), b.claude)
		}
		if had < want && run.tally.pieces >= want {
			run.cpu = cpuByRole(s.pid(), b.claude).since(before)
		}
		if t.ev.Terminal() {
			break
		}
	}
	if err := run.tally.complete(want); err != nil {
		return deltaRun{}, err
	}
	return run, c.call(ctx, "closeSession", map[string]any{"session": id}, nil)
}

// baselineRun is the baseline's iteration over the same reply: first → last delta and its CPU meanwhile.
type baselineRun struct {
	span, cpu time.Duration
}

func (b *bench) baselineDeltas(home, project string) (baselineRun, error) {
	_, line, err := timeToLine(b.baselineCmd(home, project, "[deltas]"), `"mark":"deltas"`)
	if err != nil {
		return baselineRun{}, fmt.Errorf("baseline: %w", err)
	}
	var mark struct {
		Count         int     `json:"count"`
		FirstToLastMs float64 `json:"firstToLastMs"`
		CPUMs         float64 `json:"cpuMs"`
	}
	if err := json.Unmarshal([]byte(line), &mark); err != nil {
		return baselineRun{}, err
	}
	if mark.Count != b.deltas {
		return baselineRun{}, fmt.Errorf("the baseline saw %d of the %d deltas", mark.Count, b.deltas)
	}
	msDur := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
	return baselineRun{span: msDur(mark.FirstToLastMs), cpu: msDur(mark.CPUMs)}, nil
}

// pairRatios lists a/b run by run: the runs alternate, so each pair shared the machine's state of the moment, and
// the spread says how far one round's median can be trusted.
func pairRatios(a, b []time.Duration) string {
	out := make([]string, len(a))
	for i := range a {
		out[i] = fmt.Sprintf("%.2f", ratio(a[i], b[i]))
	}
	return "[" + strings.Join(out, " ") + "]"
}

func msList(list []time.Duration) string {
	out := make([]string, len(list))
	for i, d := range list {
		out[i] = fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond))
	}
	return "[" + strings.Join(out, " ") + "] ms"
}

// hostDeltas: the same deltas read straight off the session bus in-process (no WebSocket), to tell the
// sidecar → host leg from the host → client one.
func (b *bench) hostDeltas() error {
	home, project, err := b.sandbox("hostdeltas")
	if err != nil {
		return err
	}
	m := session.NewManager(session.Config{SidecarPath: b.sidecar, Env: b.env(home), Logger: zerolog.Nop()})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		m.Shutdown(ctx)
	}()
	sub := m.Subscribe(nil)
	defer sub.Close()
	ctx, cancel := deadline()
	defer cancel()
	s, err := m.Start(ctx, session.StartOptions{Cwd: project, PermissionMode: "default"})
	if err != nil {
		return err
	}
	turn, err := s.Exec(ctx, "[deltas]")
	if err != nil {
		return err
	}
	var tally deltaTally
	for ev := range sub.C() {
		if ev.Turn != turn {
			continue
		}
		tally.add(time.Now(), ev)
		if ev.Terminal() {
			break
		}
	}
	if err := tally.complete(b.deltas); err != nil {
		return err
	}
	p50, p99 := tally.percentiles()
	fmt.Printf("%d deltas in %d events on the host's bus (no WebSocket), first → last %s; sidecar stamp → bus p50 %s, p99 %s\n",
		tally.pieces, tally.events, ms(tally.last.Sub(tally.first)), ms(p50), ms(p99))
	return nil
}
