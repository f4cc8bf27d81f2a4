//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/procinfo"
)

// timeToLine runs cmd and returns the time from its start to the first stdout line containing marker; the process
// is then waited for.
func timeToLine(cmd *exec.Cmd, marker string) (time.Duration, string, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, "", err
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, "", err
	}
	var took time.Duration
	var line string
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if took == 0 && strings.Contains(sc.Text(), marker) {
			took, line = time.Since(began), sc.Text()
		}
	}
	waitErr := cmd.Wait()
	if took == 0 {
		return 0, "", fmt.Errorf("%s printed no %s line (exit: %v)", filepath.Base(cmd.Path), marker, waitErr)
	}
	return took, line, nil
}

func (b *bench) baselineCmd(home, project, prompt string) *exec.Cmd {
	cmd := exec.Command(b.runtime, filepath.Join(b.root, "sidecar", "bench", "baseline.mjs"),
		"--cwd", project, "--executable", b.claude, "--prompt", prompt)
	cmd.Dir = home
	cmd.Env = b.env(home)
	return cmd
}

func median(list []time.Duration) time.Duration {
	s := slices.Clone(list)
	slices.Sort(s)
	return s[len(s)/2]
}

// oneTurn: process start → the turn's result, `baton exec` against the baseline, alternating runs.
func (b *bench) oneTurn() error {
	var baton, base []time.Duration
	for i := 0; i < b.runs; i++ {
		home, project, err := b.sandbox(fmt.Sprintf("turn-%d", i))
		if err != nil {
			return err
		}
		cmd := exec.Command(b.baton, "exec", "--cwd", project, "--approve", "all", "--json", "hello")
		cmd.Dir, cmd.Env = home, b.env(home)
		took, _, err := timeToLine(cmd, `"kind":"turn.completed"`)
		if err != nil {
			return fmt.Errorf("baton exec: %w", err)
		}
		baton = append(baton, took)
		took, _, err = timeToLine(b.baselineCmd(home, project, "hello"), `"mark":"result"`)
		if err != nil {
			return fmt.Errorf("baseline: %w", err)
		}
		base = append(base, took)
	}
	r := ratio(median(baton), median(base))
	fmt.Printf("one turn, start → result (median of %d): baton exec %s, baseline %s → %.2f× (goal ≤ 1.05×: %s)\n",
		b.runs, ms(median(baton)), ms(median(base)), r, verdict(r <= 1.05))
	// Where the time goes: the sidecar executable's own start (it exits at once on a closed stdin) against node's.
	sidecarStart, nodeStart, err := b.startCosts()
	if err != nil {
		return err
	}
	fmt.Printf("  start costs (median of %d): baton-sidecar to exit on EOF %s; node -e 0 %s\n", b.runs, ms(sidecarStart), ms(nodeStart))
	return nil
}

func (b *bench) startCosts() (sidecar, node time.Duration, err error) {
	var sc, nd []time.Duration
	for i := 0; i < b.runs; i++ {
		for _, c := range []struct {
			argv []string
			into *[]time.Duration
		}{{[]string{b.sidecar}, &sc}, {[]string{"node", "-e", "0"}, &nd}} {
			cmd := exec.Command(c.argv[0], c.argv[1:]...)
			began := time.Now()
			if err := cmd.Run(); err != nil {
				return 0, 0, fmt.Errorf("%s: %w", c.argv[0], err)
			}
			*c.into = append(*c.into, time.Since(began))
		}
	}
	return median(sc), median(nd), nil
}

// idleMemory: host + sidecar RSS with one idle session, claude excluded.
func (b *bench) idleMemory() error {
	x, err := b.connect("idle", "0")
	if err != nil {
		return err
	}
	defer x.close()
	project, s, c := x.project, x.s, x.c
	ctx, cancel := deadline()
	defer cancel()
	hostAlone := measure(s.pid(), b.claude)
	id, err := c.startSession(ctx, project)
	if err != nil {
		return err
	}
	turn, err := c.prompt(ctx, id, "hello")
	if err != nil {
		return err
	}
	if err := c.turnEnd(ctx, turn); err != nil {
		return err
	}
	time.Sleep(2 * time.Second) // the side reads after the turn settle; a bench, not a test
	m := measure(s.pid(), b.claude)
	host, _ := procinfo.Read(s.pid())
	var side proc
	// Sidecars with no claude child: the session index's mapper (issue 26); each sidecar runs under a reaper
	// (app/sidecar/reaper_linux.go), mostly the host's executable mapped again.
	var index, reapers int64
	procs := tree(s.pid())
	for _, p := range procs[1:] {
		switch {
		case isClaude(p, b.claude):
		case procinfo.IsReaper(p.PID):
			reapers += p.RSS
		case slices.ContainsFunc(procs, func(c proc) bool { return c.PPID == p.PID && isClaude(c, b.claude) }):
			side = p
		default:
			index += p.RSS
		}
	}
	fmt.Printf("one idle session: host + sidecars %s (goal ≤ 100 MB: %s); claude %s\n", mb(m.baton), verdict(m.baton <= 100<<20), mb(m.claude))
	fmt.Printf("  of which the session index's sidecar %s, the sidecars' reapers %s: host + the session's sidecar alone %s\n", mb(index), mb(reapers), mb(m.baton-index-reapers))
	fmt.Printf("  host %s (own memory %s, proportional share %s; %s before any session), sidecar %s (own memory %s, share %s; the rest is mapped executables and libraries)\n",
		mb(host.RSS), mb(host.Anon), mb(pss(host.PID)), mb(hostAlone.baton), mb(side.RSS), mb(side.Anon), mb(pss(side.PID)))
	return nil
}

// manySessions: b.sessions open, all but one asleep, one working: everything Baton runs, claude included.
func (b *bench) manySessions() error {
	x, err := b.connect("many", "1s") // each falls asleep a second after its turn
	if err != nil {
		return err
	}
	defer x.close()
	project, s, c := x.project, x.s, x.c
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var awakeOne memory
	for i := 0; i < b.sessions; i++ {
		id, err := c.startSession(ctx, project)
		if err != nil {
			return err
		}
		if i == b.sessions-1 { // the working one: its turn streams until the run ends
			turn, err := c.prompt(ctx, id, "[hold] keep working")
			if err != nil {
				return err
			}
			if _, err := c.until(ctx, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.MessageDelta }); err != nil {
				return err
			}
			// As in idle: the side work of the others' last changes settles (a sidecar the index started while
			// none ran ends once the working one serves it); a bench, not a test.
			time.Sleep(2 * time.Second)
			break
		}
		turn, err := c.prompt(ctx, id, fmt.Sprintf("session %d says hello", i))
		if err != nil {
			return err
		}
		if err := c.turnEnd(ctx, turn); err != nil {
			return err
		}
		if i == 0 {
			awakeOne = measure(s.pid(), b.claude)
		}
		if _, err := c.until(ctx, func(ev activity.Event) bool { return ev.Session == id && ev.State == activity.SessionStateAsleep }); err != nil {
			return err
		}
	}
	m := measure(s.pid(), b.claude)
	total := m.baton + m.claude
	fmt.Printf("%d open sessions, %d asleep, 1 working: %s in all (goal ≤ 1.2 GB: %s): Baton %s (%d sidecars), claude %s (%d)\n",
		b.sessions, b.sessions-1, mb(total), verdict(total <= 1200<<20), mb(m.baton), m.sidecars, mb(m.claude), m.claudeProc)
	host, sidecars, reapers := batonParts(s.pid(), b.claude)
	fmt.Printf("  Baton's part: host %s, sidecars %s, their reapers %s\n", mb(host), mb(sidecars), mb(reapers))
	fmt.Printf("  for scale: one session awake costs %s with its claude; %d awake would be ≈ %s\n",
		mb(awakeOne.baton+awakeOne.claude), b.sessions, mb(int64(b.sessions)*(awakeOne.baton+awakeOne.claude)))
	return nil
}

// firstTokenAfterWake: prompt → first delta in an asleep session, against start + prompt → first delta in a new one;
// then the same session asleep again and woken ahead of its prompt, as the composer does when the person types.
func (b *bench) firstTokenAfterWake() error {
	x, err := b.connect("wake", "1s")
	if err != nil {
		return err
	}
	defer x.close()
	project, c := x.project, x.c
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// calls holds how long each prompt call took to return: for an asleep session the wake is in it (a sidecar
	// and claude started, the transcript resumed); the rest, to the first delta, is the turn's own.
	var calls []time.Duration
	firstDelta := func(id, prompt string) (time.Duration, error) {
		began := time.Now()
		turn, err := c.prompt(ctx, id, prompt)
		if err != nil {
			return 0, err
		}
		calls = append(calls, time.Since(began))
		t, err := c.until(ctx, func(ev activity.Event) bool { return ev.Turn == turn && ev.Kind == activity.MessageDelta })
		if err != nil {
			return 0, err
		}
		return t.at.Sub(began), c.turnEnd(ctx, turn)
	}
	var fresh, woken, ahead, opens, freshCalls, wakeCalls []time.Duration
	var pairs []float64 // each session's woken first token over its own fresh one
	for i := 0; i < b.wakePairs; i++ {
		began := time.Now()
		id, err := c.startSession(ctx, project)
		if err != nil {
			return err
		}
		opened := time.Since(began)
		took, err := firstDelta(id, fmt.Sprintf("remember run %d", i))
		if err != nil {
			return err
		}
		fresh, opens, freshCalls = append(fresh, opened+took), append(opens, opened), append(freshCalls, calls[len(calls)-1])
		if _, err := c.until(ctx, func(ev activity.Event) bool { return ev.Session == id && ev.State == activity.SessionStateAsleep }); err != nil {
			return err
		}
		took, err = firstDelta(id, "[recall]")
		if err != nil {
			return err
		}
		woken, wakeCalls = append(woken, took), append(wakeCalls, calls[len(calls)-1])
		pairs = append(pairs, ratio(took, fresh[len(fresh)-1]))
		// Asleep once more, then woken as the console does when the person starts typing: the prompt follows
		// the wake (typing a prompt takes longer than the wake's half second).
		if _, err := c.until(ctx, func(ev activity.Event) bool { return ev.Session == id && ev.State == activity.SessionStateAsleep }); err != nil {
			return err
		}
		if err := c.call(ctx, "wakeSession", map[string]any{"session": id}, nil); err != nil {
			return err
		}
		if took, err = firstDelta(id, "[recall]"); err != nil {
			return err
		}
		ahead = append(ahead, took)
		if err := c.call(ctx, "closeSession", map[string]any{"session": id}, nil); err != nil {
			return err
		}
	}
	r := ratio(median(woken), median(fresh))
	fmt.Printf("first token (median of %d): after waking %s, fresh session %s → %.2f× (goal ≤ 1.3×: %s)\n",
		len(woken), ms(median(woken)), ms(median(fresh)), r, verdict(r <= 1.3))
	fmt.Printf("  each session woken over its own fresh start: %s\n", spread(pairs))
	fmt.Printf("  medians: fresh: open %s, prompt call %s, then %s to the first delta; woken: prompt call (the wake) %s, then %s\n",
		ms(median(opens)), ms(median(freshCalls)), ms(median(fresh)-median(opens)-median(freshCalls)), ms(median(wakeCalls)),
		ms(median(woken)-median(wakeCalls)))
	fromPrompt := median(fresh) - median(opens)
	fmt.Printf("  woken as the person types (wakeSession, then the prompt): prompt → first delta %s → %.2f× a fresh session's start + prompt, %.2f× its prompt alone (%s)\n",
		ms(median(ahead)), ratio(median(ahead), median(fresh)), ratio(median(ahead), fromPrompt), ms(fromPrompt))
	return nil
}
