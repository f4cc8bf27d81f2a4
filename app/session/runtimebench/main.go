//go:build unix

// Command runtimebench measures Baton's runtime against the raw SDK (sidecar/bench/baseline.mjs: query() with the
// options the sidecar uses), both driving the same claude against the same scripted Messages API on loopback, side
// by side in one run. It is a benchmark, not a test: run it through `scripts/bench runtime`. Goals (issues 16, 32):
//
//	one turn, process start → result (baton exec vs baseline)         ≤ 1.05×
//	20,000 deltas, first → last at a WebSocket client vs baseline      median of ≥ 15 interleaved pairs ≤ 1.10×
//	  (their burst p99 of added latency is printed with no goal: on 2 vCPUs it is the scheduler's)
//	host + sidecar CPU, first → last delta, vs the baseline node's     median of the pairs ≤ 1.25×
//	2,000 deltas paced at ~1,000/s: added latency per delta            p99 < 5 ms
//	host + sidecar RSS, one idle session (claude excluded)             ≤ 100 MB
//	20 open sessions, 19 asleep, 1 working: Baton + sidecars + claude  ≤ 1.2 GB
//	first token after waking vs a fresh session's first token          ≤ 1.3×
//	20,000 deltas at an ACP client of `baton acp` vs the console's path ≤ 1.10× (issue 31; -only acp)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
)

// bench is one run's shared setup: the scripted API, the binaries and a sandboxed home.
type bench struct {
	root       string // the repository
	baton      string
	sidecar    string
	claude     string
	api        *fakeapi.Server
	dir        string
	hold       chan struct{} // [hold] replies wait on it until the run ends
	deltas     int
	runs       int
	pairs      int // Baton/baseline pairs of the burst figure
	wakePairs  int // fresh/woken pairs of the first-token figure
	sessions   int
	sidecarEnv string        // -sidecar-env: runtime options the sidecarenv figure tries
	afterIdle  time.Duration // -after-idle: the sidecarenv figure's replies come after a turn and this idle
	runtime    string        // what runs the baseline script: node, or bun to tell the runtime's share from Baton's
}

func main() {
	runs := flag.Int("runs", 5, "repetitions of the one-turn and paced figures")
	pairs := flag.Int("pairs", 15, "interleaved Baton/baseline pairs of the burst (deltas) figure; its goals need ≥ 15")
	wakePairs := flag.Int("wake-pairs", 9, "sessions of the first-token figure, each fresh then woken (over 5 it swung 0.75–1.21×)")
	deltas := flag.Int("deltas", 20000, "text deltas in the streaming figure")
	sessions := flag.Int("sessions", 20, "open sessions in the memory figure")
	only := flag.String("only", "turn,deltas,paced,idle,many,wake", "comma-separated figures to measure (also: hostdeltas, acp, sidecarenv)")
	runtime := flag.String("baseline-runtime", "node", "what runs the baseline script: node, or bun (the sidecar's runtime)")
	sidecarEnv := flag.String("sidecar-env", "", "sidecarenv figure: comma-separated NAME=VALUE runtime options to try against the sidecar as built")
	afterIdle := flag.Duration("after-idle", 0, "sidecarenv figure: stream each reply as a session's second, after a short turn and this idle")
	cpuProfile := flag.String("cpuprofile", "", "write this process's CPU profile here (hostdeltas runs the host in it)")
	flag.Parse()
	// This process is the console client and the scripted API at once: fewer collections of its own garbage keep
	// its pauses out of the latencies it measures.
	debug.SetGCPercent(400)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	b, err := setup(*runs, *deltas, *sessions)
	if err != nil {
		fmt.Fprintln(os.Stderr, "runtimebench:", err)
		os.Exit(1)
	}
	defer b.close()
	b.runtime = *runtime
	b.pairs = max(*pairs, 1)
	b.wakePairs = max(*wakePairs, 1)
	b.sidecarEnv = *sidecarEnv
	b.afterIdle = *afterIdle
	if b.runtime == "bun" {
		b.runtime = filepath.Join(b.root, "sidecar", "node_modules", ".bin", "bun")
	}
	failed := false
	for _, name := range strings.Split(*only, ",") {
		fig, ok := figures[name]
		if !ok {
			fmt.Fprintf(os.Stderr, "runtimebench: no figure %q\n", name)
			os.Exit(2)
		}
		fmt.Printf("== %s\n", name)
		if err := fig(b); err != nil {
			fmt.Fprintf(os.Stderr, "runtimebench: %s: %v\n", name, err)
			failed = true
		}
	}
	if failed {
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

var figures = map[string]func(*bench) error{
	"turn":       (*bench).oneTurn,
	"deltas":     (*bench).streamedDeltas,
	"paced":      (*bench).pacedDeltas,
	"idle":       (*bench).idleMemory,
	"many":       (*bench).manySessions,
	"wake":       (*bench).firstTokenAfterWake,
	"hostdeltas": (*bench).hostDeltas,
	"acp":        (*bench).acpDeltas,
	"sidecarenv": (*bench).sidecarEnvAB,
}

// deltaFlush: the scripted API sends the streamed reply in writes of this many events (~3.5 KB), as a remote
// API's stream arrives in network segments, instead of one flushed write per event: 20,000 writes made this
// process (which plays the API) a machine-loading process of its own, the same for Baton and the baseline.
const deltaFlush = 32

func setup(runs, deltas, sessions int) (*bench, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return nil, err
	}
	claude, err := testenv.ClaudePath()
	if err != nil {
		return nil, err
	}
	b := &bench{root: root, claude: claude, hold: make(chan struct{}), deltas: deltas, runs: runs, sessions: sessions,
		baton: filepath.Join(root, "build", "bin", "baton"), sidecar: filepath.Join(root, "build", "bin", "baton-sidecar")}
	if p := os.Getenv("BATON_SIDECAR"); p != "" {
		b.sidecar = p
	}
	if p := os.Getenv("BATON_BIN"); p != "" { // e.g. a build with symbols, for perf
		b.baton = p
	}
	for _, p := range []string{b.baton, b.sidecar} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%s is missing: run scripts/build first", p)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk")); err != nil {
		return nil, errors.New("the baseline needs the SDK under sidecar/node_modules: run scripts/setup first")
	}
	script := fakeapi.DefaultScript()
	b.api, err = fakeapi.Start(func(req *fakeapi.Request) fakeapi.Reply {
		r := script(req)
		text := req.LastUserText()
		if req.Stream && strings.Contains(text, "[deltas]") && len(req.LastToolResults()) == 0 {
			// One text block split into exactly b.deltas text_delta events.
			r = fakeapi.TextReply(strings.Repeat(deltaPiece, b.deltas))
			r.DeltaCount = b.deltas
			r.FlushEvery = deltaFlush
		}
		if req.Stream && strings.Contains(text, "[paced]") && len(req.LastToolResults()) == 0 {
			r = fakeapi.TextReply(strings.Repeat(deltaPiece, pacedCount))
			r.DeltaCount, r.DeltaDelay = pacedCount, pacedDelay
		}
		if req.Stream && strings.Contains(text, "[hold]") && len(req.LastToolResults()) == 0 {
			r.Hold = b.hold
		}
		return r
	})
	if err != nil {
		return nil, err
	}
	b.dir, err = os.MkdirTemp("", "baton-runtimebench-")
	if err != nil {
		b.api.Close()
		return nil, err
	}
	return b, nil
}

func (b *bench) close() {
	close(b.hold)
	b.api.Close()
	_ = os.RemoveAll(b.dir)
}

// sandbox makes a fresh home and project for one measurement, so no run warms another's transcript or cache.
func (b *bench) sandbox(name string) (home, project string, err error) {
	home, project = filepath.Join(b.dir, name, "home"), filepath.Join(b.dir, name, "project")
	for _, d := range []string{home, project, filepath.Join(home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
	}
	return home, project, nil
}

// env is what both Baton and the baseline run with: the sandboxed home, the scripted API, the same claude.
func (b *bench) env(home string) []string {
	return append(testenv.CLIEnv(b.api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+b.claude, "BATON_SIDECAR="+b.sidecar,
		"BATON_DATA_DIR="+filepath.Join(home, "baton-data"))
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

func mb(bytes int64) string { return fmt.Sprintf("%.1f MB", float64(bytes)/(1<<20)) }

func verdict(ok bool) string {
	if ok {
		return "meets the goal"
	}
	return "MISSES the goal"
}

// deadline bounds one measurement, so a hung run fails the bench instead of hanging it.
func deadline() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 3*time.Minute)
}
