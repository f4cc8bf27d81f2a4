//go:build !windows

package terminal_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/terminal"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// The tests run a real /bin/sh in a real PTY, with an empty PATH and a temp HOME so nothing of the machine's own
// shell setup runs. Every wait is on a marker the shell prints; the deadline only ends a test that hangs.

// printf's %s splits each marker so that the shell's echo of the typed line never matches it.
func marker(name string) (cmd, out string) { return "printf '" + name + "%s\\n' _OK", name + "_OK" }

type rig struct {
	t    *testing.T
	svc  *terminal.Service
	dir  string
	mu   sync.Mutex
	cond *sync.Cond
	out  map[string]*bytes.Buffer
	ends map[string]terminal.Output
	gaps int
	log  *testenv.LockedBuffer // what the service logged
}

func newRig(t *testing.T, scrollback int) *rig {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ENV", "")
	t.Setenv("PATH", t.TempDir())
	log := &testenv.LockedBuffer{}
	r := &rig{t: t, dir: t.TempDir(), out: map[string]*bytes.Buffer{}, ends: map[string]terminal.Output{}, log: log,
		svc: terminal.New(terminal.Options{Shell: []string{"/bin/sh"}, Scrollback: scrollback,
			// As the host's (app/logging.go): every line carries Baton's own pid.
			Logger: zerolog.New(log).With().Int("pid", os.Getpid()).Logger()})}
	r.cond = sync.NewCond(&r.mu)
	sub := r.svc.Subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			outs, err := sub.Next(ctx)
			if err != nil {
				return
			}
			r.collect(outs)
		}
	}()
	t.Cleanup(func() { r.svc.Shutdown(); cancel(); <-done; sub.Close() })
	return r
}

func (r *rig) collect(outs []terminal.Output) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, o := range outs {
		b, ok := r.out[o.Terminal]
		if !ok {
			b = &bytes.Buffer{}
			r.out[o.Terminal] = b
		}
		if int64(b.Len()) != o.Offset {
			r.gaps++
		}
		b.Write(o.Data)
		if o.Exited {
			r.ends[o.Terminal] = o
		}
	}
	r.cond.Broadcast()
}

// waitFor blocks until cond holds over the collected state.
func (r *rig) waitFor(what string, cond func() bool) {
	r.t.Helper()
	timer := time.AfterFunc(30*time.Second, func() { r.mu.Lock(); r.cond.Broadcast(); r.mu.Unlock() })
	defer timer.Stop()
	deadline := time.Now().Add(30 * time.Second)
	r.mu.Lock()
	defer r.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			r.t.Fatalf("never saw %s", what)
		}
		r.cond.Wait()
	}
}

func (r *rig) waitOutput(id, text string) string {
	r.t.Helper()
	var got string
	r.waitFor(strconv.Quote(text), func() bool {
		b := r.out[id]
		got = ""
		if b != nil {
			got = b.String()
		}
		return strings.Contains(got, text)
	})
	return got
}

func (r *rig) open(owner string) terminal.Info {
	r.t.Helper()
	info, err := r.svc.Open(terminal.Spec{Owner: owner, Dir: r.dir, Cols: 80, Rows: 24, Env: []string{"PS1=$ "}})
	require.NoError(r.t, err)
	return info
}

func (r *rig) typeLine(id, line string) {
	r.t.Helper()
	require.NoError(r.t, r.svc.Write(id, []byte(line+"\n")))
}

func TestShellRunsInTheFolderAndPrints(t *testing.T) {
	r := newRig(t, 0)
	info := r.open("s1")
	cmd, out := marker("DONE")
	r.typeLine(info.ID, "printf 'A%sB\\n' 42 > made; "+cmd)
	r.waitOutput(info.ID, out)
	data, err := os.ReadFile(filepath.Join(r.dir, "made"))
	require.NoError(t, err)
	require.Equal(t, "A42B\n", string(data))
}

// 24-bit colours cannot be drawn under the console's CSP, so programs are not told they can use them, even when
// Baton itself was started from a terminal that said so.
func TestProgramsAreToldOf256ColoursOnly(t *testing.T) {
	t.Setenv("COLORTERM", "truecolor")
	r := newRig(t, 0)
	info := r.open("s1")
	r.typeLine(info.ID, `printf 'term=%s colorterm=[%s]\n' "$TERM" "$COLORTERM"`)
	r.waitOutput(info.ID, "term=xterm-256color colorterm=[]")
}

func TestResizeReachesTheProgram(t *testing.T) {
	if _, err := os.Stat("/bin/stty"); err != nil {
		t.Skip("needs /bin/stty to read the terminal's size")
	}
	r := newRig(t, 0)
	info := r.open("s1")
	require.NoError(t, r.svc.Resize(info.ID, 101, 37))
	r.typeLine(info.ID, "printf 'SIZE%s=' _IS; /bin/stty size")
	r.waitOutput(info.ID, "SIZE_IS=37 101")
}

func TestAnExitingShellReportsItsCode(t *testing.T) {
	r := newRig(t, 0)
	info := r.open("s1")
	r.typeLine(info.ID, "exit 3")
	r.waitFor("the exit", func() bool { _, ok := r.ends[info.ID]; return ok })
	require.Equal(t, 3, r.ends[info.ID].ExitCode)
	list := r.svc.List("s1", false)
	require.Len(t, list, 1)
	require.True(t, list[0].Exited)
	require.Equal(t, 3, list[0].ExitCode)
	require.Error(t, r.svc.Write(info.ID, []byte("echo\n")), "nothing reads a dead shell's input")
}

func TestASessionsTerminalsAreListedInTheOrderTheyOpened(t *testing.T) {
	r := newRig(t, 0)
	want := []string{}
	for i := range 8 {
		want = append(want, r.open("s1").ID)
		if i == 3 {
			r.open("s2") // another session's terminal between them is not listed
		}
	}
	require.NoError(t, r.svc.Close(want[5]))
	want = append(want[:5], want[6:]...)
	for range 3 { // a map's order differs from one walk to the next; the list's must not
		got := []string{}
		for _, info := range r.svc.List("s1", false) {
			got = append(got, info.ID)
		}
		require.Equal(t, want, got, "a reloaded console shows its tabs in this order")
	}
}

func TestClosingTheSessionEndsItsShellsAndTheirJobs(t *testing.T) {
	r := newRig(t, 0)
	info := r.open("s1")
	other := r.open("s2")
	fifo := filepath.Join(t.TempDir(), "never")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	// A background job that ignores SIGHUP and blocks opening a FIFO no one writes: only Baton's sweep ends it.
	r.typeLine(info.ID, `/bin/sh -c 'trap "" HUP; printf "CHILD=%s=\n" $$; read x < `+fifo+`' &`)
	pidLine := regexp.MustCompile(`CHILD=(\d+)=`)
	var m []string
	r.waitFor("the child's pid", func() bool {
		m = pidLine.FindStringSubmatch(r.out[info.ID].String())
		return m != nil
	})
	child, _ := strconv.Atoi(m[1])
	require.True(t, testenv.Alive(child), "the job runs before the session closes")

	r.svc.CloseOwner("s1")
	// SIGKILLed by then; it leaves the process table a moment later, which a loaded machine can show.
	testenv.WaitGone(t, []int{child}, 10*time.Second)
	require.Empty(t, r.svc.List("s1", false))
	require.Len(t, r.svc.List("s2", false), 1, "another session's terminal stays")
	require.ErrorIs(t, r.svc.Write(info.ID, []byte("x")), terminal.ErrNotFound)
	cmd, out := marker("STILL")
	r.typeLine(other.ID, cmd)
	r.waitOutput(other.ID, out)
}

func TestScrollbackIsBoundedAndRedraws(t *testing.T) {
	r := newRig(t, 4096)
	info := r.open("s1")
	cmd, out := marker("END")
	r.typeLine(info.ID, "i=0; while [ $i -lt 500 ]; do printf '%039d\\n' $i; i=$((i+1)); done; "+cmd)
	r.waitOutput(info.ID, out)
	data, end, st, err := r.svc.Scrollback(info.ID)
	require.NoError(t, err)
	require.LessOrEqual(t, len(data), 4096)
	require.Contains(t, string(data), out)
	require.Contains(t, string(data), fmt.Sprintf("%039d", 499))
	require.NotContains(t, string(data), fmt.Sprintf("%039d", 0))
	r.mu.Lock()
	total := r.out[info.ID].Len()
	r.mu.Unlock()
	require.GreaterOrEqual(t, end, int64(20000))
	require.LessOrEqual(t, end, int64(total), "the scrollback ends where the pushed output does (or earlier)")
	require.False(t, st.Exited)
}

func TestShutdownEndsEverythingAndRefusesMore(t *testing.T) {
	r := newRig(t, 0)
	r.open("s1")
	r.open("")
	r.svc.Shutdown()
	require.Empty(t, r.svc.List("", true))
	_, err := r.svc.Open(terminal.Spec{Dir: r.dir})
	require.Error(t, err)
}

func TestOpenInAMissingFolderSaysSo(t *testing.T) {
	r := newRig(t, 0)
	_, err := r.svc.Open(terminal.Spec{Dir: filepath.Join(r.dir, "gone")})
	require.ErrorContains(t, err, "is not there")
}

func TestLoginShellIsTheUsersWithDashL(t *testing.T) {
	t.Setenv("SHELL", "/bin/zsh-of-this-person")
	require.Equal(t, []string{"/bin/zsh-of-this-person", "-l"}, terminal.LoginShell())
}

func TestNothingTypedOrPrintedIsLogged(t *testing.T) {
	r := newRig(t, 0)
	info := r.open("s1")
	cmd, out := marker("SECRET")
	r.typeLine(info.ID, "hunter2-typed; "+cmd)
	r.waitOutput(info.ID, out)
	r.typeLine(info.ID, "exit")
	r.waitFor("the exit", func() bool { _, ok := r.ends[info.ID]; return ok })
	require.NoError(t, r.svc.Close(info.ID))
	logged := r.log.String()
	require.Contains(t, logged, "terminal opened", "the service does log its lifecycle")
	require.NotContains(t, logged, "hunter2")
	require.NotContains(t, logged, "SECRET")
}

// The host's logger carries its own pid on every line; a shell's is logged under another key, so no line holds
// "pid" twice (a JSON object with a duplicate key reads differently in every tool).
func TestTheShellsPidIsNotASecondPidField(t *testing.T) {
	r := newRig(t, 0)
	info := r.open("s1")
	require.NoError(t, r.svc.Close(info.ID))
	lines := strings.Split(strings.TrimSpace(r.log.String()), "\n")
	require.NotEmpty(t, lines)
	for _, line := range lines {
		require.Equal(t, 1, strings.Count(line, `"pid":`), "one pid per line: %s", line)
	}
	require.Contains(t, r.log.String(), `"shellPid":`)
}
