package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

var batonBin string

// TestMain builds the real baton command once (without the window's build tags: the headless commands do not
// need them) so these tests run it exactly as a user or a script does.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "baton-cli-test-")
	if err != nil {
		panic(err)
	}
	root, err := testenv.RepoRoot()
	if err != nil {
		panic(err)
	}
	batonBin = filepath.Join(dir, "baton")
	build := exec.Command("go", "build", "-o", batonBin, ".")
	build.Dir = root
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build baton: " + err.Error())
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

type cliHarness struct {
	t       *testing.T
	api     *fakeapi.Server
	home    string
	project string
	env     []string
}

func newCLIHarness(t *testing.T) *cliHarness {
	t.Helper()
	return newScriptedHarness(t, fakeapi.DefaultScript())
}

// newScriptedHarness is a harness whose API answers as script says.
func newScriptedHarness(t *testing.T, script fakeapi.Script) *cliHarness {
	t.Helper()
	claude := testenv.RequireClaude(t)
	sidecar := testenv.SidecarPath(t)
	api, err := fakeapi.Start(script)
	require.NoError(t, err)
	t.Cleanup(api.Close)
	h := &cliHarness{t: t, api: api, home: testenv.NewHome(t), project: testenv.NewProject(t)}
	h.env = append(testenv.CLIEnv(api.URL(), h.home), "CLAUDE_CODE_EXECUTABLE="+claude, "BATON_SIDECAR="+sidecar,
		"BATON_DATA_DIR="+filepath.Join(h.home, "baton-data"))
	return h
}

type result struct {
	code   int
	stdout string
	stderr string
}

func (h *cliHarness) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, batonBin, args...)
	cmd.Env = h.env
	cmd.Dir = h.project
	cmd.Stdin = strings.NewReader("") // not a terminal: nobody can answer questions
	return cmd
}

func (h *cliHarness) run(args ...string) result {
	h.t.Helper()
	return h.runWith(batonBin, args...)
}

// runWith runs a baton binary (the one built for the tests, or another) with the harness's environment and
// project, its stdin empty, and returns how it ended.
func (h *cliHarness) runWith(bin string, args ...string) result {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := h.command(ctx, args...)
	cmd.Path, cmd.Args[0] = bin, bin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		var exitErr *exec.ExitError
		require.ErrorAs(h.t, err, &exitErr, "baton %v: %v\n%s", args, err, errb.String())
		code = exitErr.ExitCode()
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

func parseEvents(t *testing.T, stdout string) []activity.Event {
	t.Helper()
	var events []activity.Event
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var ev activity.Event
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev), "not an event line: %s", sc.Text())
		require.NoError(t, ev.Validate())
		require.NotZero(t, ev.Seq)
		events = append(events, ev)
	}
	return events
}

func find(events []activity.Event, kind activity.Kind) []activity.Event {
	var out []activity.Event
	for _, ev := range events {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

func TestExecUsageErrors(t *testing.T) {
	h := newCLIHarness(t)
	for _, args := range [][]string{
		{"exec"},
		{"exec", "--session-id", "not-a-uuid", "hi"},
		{"exec", "--resume", "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "--fork", "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "hi"},
		{"exec", "--permission-mode", "yolo", "hi"},
		{"exec", "--approve", "Read,,Write", "hi"},
		{"exec", "--at", "x", "hi"},
		{"exec", "--cwd", "/does/not/exist", "hi"},
		{"exec", "--no-such-flag", "hi"},
		{"history"},
		{"frobnicate"},
	} {
		r := h.run(args...)
		require.Equal(t, 2, r.code, "baton %v should be a usage error; stderr: %s", args, r.stderr)
		require.NotEmpty(t, r.stderr)
	}
}

func TestExecJSONWithApproveAll(t *testing.T) {
	h := newCLIHarness(t)
	r := h.run("exec", "--json", "--approve", "all", "--permission-mode", "default", "[write made.txt by baton exec]")
	require.Equal(t, 0, r.code, r.stderr)
	data, err := os.ReadFile(filepath.Join(h.project, "made.txt"))
	require.NoError(t, err)
	require.Equal(t, "by baton exec\n", string(data))

	events := parseEvents(t, r.stdout)
	require.Len(t, find(events, activity.PermissionRequested), 1)
	settled := find(events, activity.PermissionSettled)
	require.Len(t, settled, 1)
	require.Equal(t, "allow", settled[0].Verdict.String())
	require.Equal(t, "policy", settled[0].By.String())
	require.Len(t, find(events, activity.TurnCompleted), 1)
	require.Equal(t, activity.SessionClosed, events[len(events)-1].Kind, "the session is closed before exit")
}

func TestExecDeniesWithoutATerminal(t *testing.T) {
	h := newCLIHarness(t)
	r := h.run("exec", "--json", "--permission-mode", "default", "[write nope.txt x]")
	require.Equal(t, 0, r.code, "a denied tool still completes the turn: %s", r.stderr)
	_, err := os.Stat(filepath.Join(h.project, "nope.txt"))
	require.True(t, os.IsNotExist(err))
	settled := find(parseEvents(t, r.stdout), activity.PermissionSettled)
	require.Len(t, settled, 1)
	require.Equal(t, "deny", settled[0].Verdict.String())
	require.Equal(t, "policy", settled[0].By.String())

	r = h.run("exec", "--approve", "none", "--permission-mode", "default", "[write nope.txt x]")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "denied (policy)")
	_, err = os.Stat(filepath.Join(h.project, "nope.txt"))
	require.True(t, os.IsNotExist(err))
}

// --approve none denies plainly, the terminal's "No": Claude stops at the first denied tool (the second one of
// the reply is never asked, no follow-up request reaches the API), the turn completes once and exec exits 0. A
// reopened session's history reads both refused calls as denied.
func TestExecApproveNoneStopsAtTheFirstDeniedTool(t *testing.T) {
	h := newCLIHarness(t)
	const id = "24242424-0000-4000-8000-000000000004"
	r := h.run("exec", "--json", "--approve", "none", "--permission-mode", "default", "--session-id", id, "[write a.txt one] [write b.txt two]")
	require.Equal(t, 0, r.code, r.stderr)
	events := parseEvents(t, r.stdout)
	require.Len(t, find(events, activity.PermissionRequested), 1, "the second Write is never asked")
	settled := find(events, activity.PermissionSettled)
	require.Len(t, settled, 1)
	require.Equal(t, "deny", settled[0].Verdict.String())
	require.Equal(t, "policy", settled[0].By.String())
	require.Empty(t, settled[0].Message, "a plain deny: no message of the person's")
	completed := find(events, activity.TurnCompleted)
	require.Len(t, completed, 1)
	require.Equal(t, "tool_denied", completed[0].StopReason)
	require.Empty(t, find(events, activity.TurnCanceled))
	require.Empty(t, find(events, activity.TurnFailed))
	failed := find(events, activity.ToolFailed)
	require.Len(t, failed, 2)
	for _, ev := range failed {
		require.NotNil(t, ev.Denied, "%s", ev.ToolUseID)
		require.True(t, *ev.Denied)
		require.Contains(t, ev.Error, "STOP what you are doing and wait for the user", "Claude Code's own words reached the model")
	}
	for _, ev := range find(events, activity.MessageCompleted) {
		require.NotContains(t, ev.Text, fakeapi.ToolResultsPrefix, "no follow-up request answered the tool results")
	}
	var calls int
	for _, hit := range h.api.Hits() {
		if hit.Stream {
			calls++
		}
	}
	require.Equal(t, 1, calls, "one model request: none after the deny")
	for _, name := range []string{"a.txt", "b.txt"} {
		_, err := os.Stat(filepath.Join(h.project, name))
		require.True(t, os.IsNotExist(err), name)
	}

	r = h.run("history", "--json", id)
	require.Equal(t, 0, r.code, r.stderr)
	past := find(parseEvents(t, r.stdout), activity.ToolFailed)
	require.Len(t, past, 2)
	for _, ev := range past {
		require.NotNil(t, ev.Denied, "history reads the refused call as denied, not failed")
	}
	r = h.run("history", id)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "✗ Write denied: ")
}

func TestExecFailedTurnExitsOne(t *testing.T) {
	h := newCLIHarness(t)
	r := h.run("exec", "--json", "[status 400] break")
	require.Equal(t, 1, r.code, r.stderr)
	require.Len(t, find(parseEvents(t, r.stdout), activity.TurnFailed), 1)
}

func TestExecCtrlCCancelsTheTurn(t *testing.T) {
	h := newCLIHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := h.command(ctx, "exec", "--json", "[slow] a long answer")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	var lines []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	signaled := false
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if !signaled && strings.Contains(sc.Text(), `"kind":"message.delta"`) {
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			signaled = true
		}
	}
	err = cmd.Wait()
	require.True(t, signaled, "no delta arrived; stderr: %s", stderr.String())
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr)
	require.Equal(t, 130, exitErr.ExitCode(), stderr.String())
	events := parseEvents(t, strings.Join(lines, "\n"))
	require.Len(t, find(events, activity.TurnCanceled), 1, "a clean cancel of the turn, not a kill")
	require.Equal(t, activity.SessionClosed, events[len(events)-1].Kind)
}

// Claude Code stopped dead: the first Ctrl-C waits the interrupt budget, the second skips it and closes the query,
// so baton exec ends within the drain budget, exit 130, the turn force-stopped and no claude left behind.
func TestExecSecondCtrlCSkipsTheInterruptBudget(t *testing.T) {
	h := newCLIHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := h.command(ctx, "exec", "--json", "[slow] a long answer")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &testenv.LockedBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	var lines []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	claude := 0
	var second time.Time
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if claude == 0 && strings.Contains(sc.Text(), `"kind":"message.delta"`) {
			claude = freezeClaude(t, cmd.Process.Pid)
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "canceling the turn") },
				10*time.Second, 10*time.Millisecond)
			second = time.Now()
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
		}
	}
	err = cmd.Wait()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr)
	require.Equal(t, 130, exitErr.ExitCode(), stderr.String())
	// The default drain budget is 3 s; the interrupt budget (3 s) was skipped.
	require.Less(t, time.Since(second), 3*time.Second+2*time.Second, stderr.String())
	events := parseEvents(t, strings.Join(lines, "\n"))
	canceled := find(events, activity.TurnCanceled)
	require.Len(t, canceled, 1, stderr.String())
	require.True(t, canceled[0].Forced != nil && *canceled[0].Forced)
	require.False(t, testenv.Alive(claude), "the stopped claude is gone")
}

func TestSessionsHistoryAndResumeFromTheCommandLine(t *testing.T) {
	h := newCLIHarness(t)
	id := "5b0c6f0e-2d7a-4c8e-9f1a-3b2c4d5e6f70"
	r := h.run("exec", "--session-id", id, "the secret word is kumquat")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "You said: the secret word is kumquat")

	r = h.run("exec", "--session-id", id, "a second session under the same id")
	require.Equal(t, 2, r.code, "an id that is taken is a usage error (exit 2): it starts nothing")
	require.Contains(t, r.stderr, "is taken", r.stderr)
	require.Contains(t, r.stderr, "--resume", "it says how to continue that session instead")

	r = h.run("exec", "--json", "--resume", id, "[recall]")
	require.Equal(t, 0, r.code, r.stderr)
	texts := ""
	for _, ev := range find(parseEvents(t, r.stdout), activity.MessageCompleted) {
		texts += ev.Text + "\n"
		require.Equal(t, id, ev.Session, "a resumed session keeps its id")
	}
	require.Contains(t, texts, "kumquat")

	r = h.run("sessions", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var list []struct {
		Session string `json:"session"`
		Cwd     string `json:"cwd"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &list))
	require.NotEmpty(t, list)
	require.Equal(t, id, list[0].Session)

	r = h.run("sessions")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, id)

	r = h.run("history", "--json", id)
	require.Equal(t, 0, r.code, r.stderr)
	hist := parseEvents(t, r.stdout)
	require.NotEmpty(t, find(hist, activity.MessageCompleted))
	r = h.run("history", id)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "kumquat")
}

// Ids that look like UUIDs but are not session ids are the host's usage errors, in a person's words: no
// protocol wording ("payload.session: Invalid UUID") reaches the terminal.
func TestNotASessionIDIsAUsageError(t *testing.T) {
	h := newCLIHarness(t)
	const notAnID = "11111111-2222-3333-4444-555555555555"
	for _, args := range [][]string{
		{"exec", "--resume", notAnID, "hi"},
		{"exec", "--fork", notAnID, "hi"},
		{"exec", "--session-id", notAnID, "hi"},
		{"history", notAnID},
	} {
		r := h.run(args...)
		require.Equal(t, 2, r.code, "baton %v; stderr: %s", args, r.stderr)
		require.Contains(t, r.stderr, notAnID+`" is not a session id`)
		require.NotContains(t, r.stderr, "payload")
		require.NotContains(t, r.stderr, "Invalid UUID")
	}
}

// Resuming a well-formed id that no stored session has says so and points to `baton sessions`; the root hint
// about bypass mode appears only when bypass mode was asked for.
func TestResumingAnUnknownSessionSaysSo(t *testing.T) {
	h := newCLIHarness(t)
	const unknown = "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"
	r := h.run("exec", "--resume", unknown, "hi")
	require.Equal(t, 1, r.code, "stderr: %s", r.stderr)
	require.Contains(t, r.stderr, "no stored session "+unknown+" was found")
	require.Contains(t, r.stderr, "see baton sessions")
	require.NotContains(t, r.stderr, "IS_SANDBOX", "the root hint explains only a refused bypass mode")
	require.Empty(t, h.api.Requests(), "nothing reached the model")
}

// Baton killed with SIGKILL mid-turn: after it, history reads that turn host_exited from its receipt, and the
// receipt of the turn before it is intact (outcome and cost).
func TestHistoryReadsHostExitedAfterBatonWasKilledMidTurn(t *testing.T) {
	h := newCLIHarness(t)
	id := "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
	r := h.run("exec", "--session-id", id, "first, all the way")
	require.Equal(t, 0, r.code, r.stderr)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := h.command(ctx, "exec", "--json", "--resume", id, "[slow] cut off")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var below []int
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"kind":"message.delta"`) {
			below = testenv.DescendantPIDs(cmd.Process.Pid)
			require.NoError(t, cmd.Process.Kill())
			break
		}
	}
	_ = cmd.Wait()
	// The orphaned sidecar sees its stdin close and ends its session; wait for it and its claude.
	testenv.WaitGone(t, below, 30*time.Second)

	r = h.run("history", id)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Turns run by Baton")
	require.Contains(t, r.stdout, "failed: host_exited")
	require.Regexp(t, `completed · [0-9.]+m?s · \$[0-9.]+ · \d+ tokens`, r.stdout)

	// The history itself ends each Baton-run turn as its receipt says (a transcript has no results).
	r = h.run("history", "--json", id)
	require.Equal(t, 0, r.code, r.stderr)
	events := parseEvents(t, r.stdout)
	require.Len(t, find(events, activity.TurnCompleted), 1)
	failed := find(events, activity.TurnFailed)
	require.Len(t, failed, 1)
	require.Equal(t, "host_exited", failed[0].Code)
	require.Equal(t, activity.TurnFailed, events[len(events)-1].Kind, "the cut-off turn is the last one")
}

// freezeClaude stops the claude process under baton (pid) dead with SIGSTOP, and kills it when the test ends.
func freezeClaude(t *testing.T, baton int) int {
	t.Helper()
	claude := claudeUnder(t, baton)
	testenv.Freeze(t, claude)
	return claude
}

// claudeUnder is the pid of the claude process below baton's.
func claudeUnder(t *testing.T, baton int) int {
	t.Helper()
	claude := 0
	for _, pid := range testenv.DescendantPIDs(baton) {
		if exe, _ := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "exe")); strings.Contains(filepath.Base(exe), "claude") {
			claude = pid
		}
	}
	require.NotZero(t, claude, "no claude process under baton")
	return claude
}
