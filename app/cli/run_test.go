package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/runner"
	"github.com/stretchr/testify/require"
)

func decodeResult(t *testing.T, stdout string) runner.Result {
	t.Helper()
	var res runner.Result
	require.NoError(t, json.Unmarshal([]byte(stdout), &res), "not one JSON result: %s", stdout)
	require.Equal(t, 1, strings.Count(strings.TrimSpace(stdout), "\n")+1, "one JSON object on one line")
	return res
}

// A command tool gets its JSON input on stdin and its stdout is what the model reads; Bash asked for by the
// model never runs.
func TestRunWithACommandToolAndJSON(t *testing.T) {
	h := newCLIHarness(t)
	sentinel := filepath.Join(t.TempDir(), "bash-ran")
	r := h.run("run", "--json", "--tool", "shout=tr a-z A-Z",
		`[tool mcp__baton__shout {"text":"hello"}] [bash touch `+sentinel+`]`)
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	res := decodeResult(t, r.stdout)
	require.Equal(t, runner.StopNatural, res.StopReason)
	require.Len(t, res.ToolCalls, 2)
	require.Equal(t, "Bash", res.ToolCalls[0].Name)
	require.Equal(t, runner.FailureUnavailable, res.ToolCalls[0].Failure)
	require.Equal(t, "shout", res.ToolCalls[1].Name)
	require.Equal(t, `{"TEXT":"HELLO"}`, res.ToolCalls[1].Output)
	require.Equal(t, 1, res.ToolFailures)
	require.Contains(t, res.Text, `[ok] {"TEXT":"HELLO"}`)
	require.NoFileExists(t, sentinel)
	for _, req := range h.api.Requests() {
		require.Equal(t, []string{"mcp__baton__shout"}, req.ToolNames)
	}
}

func TestRunToolsFileSystemPromptAndExitCodes(t *testing.T) {
	h := newCLIHarness(t)
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.json")
	require.NoError(t, os.WriteFile(tools, []byte(`{"tools":[
		{"name":"count","description":"Counts the characters of a word","command":"wc -c",
		 "inputSchema":{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}},
		{"name":"broken","description":"Always fails","command":"echo out of order >&2; exit 4"}]}`), 0o644))
	system := filepath.Join(dir, "system.md")
	require.NoError(t, os.WriteFile(system, []byte("SYSTEM-PROMPT-MARKER"), 0o644))

	r := h.run("run", "--json", "--tools-file", tools, "--system", system,
		`[tool mcp__baton__count {"word":"baton"}] [tool mcp__baton__broken {}]`)
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	res := decodeResult(t, r.stdout)
	require.Equal(t, 1, res.ToolFailures)
	require.Equal(t, runner.FailureHandler, res.ToolCalls[1].Failure)
	require.Contains(t, res.ToolCalls[1].Output, "out of order")
	require.Contains(t, h.api.Requests()[0].System, "SYSTEM-PROMPT-MARKER")
	require.ElementsMatch(t, []string{"mcp__baton__count", "mcp__baton__broken"}, h.api.Requests()[0].ToolNames)

	// The step budget: exit 3, and the transcript form names the stop.
	r = h.run("run", "--tools-file", tools, "--max-turns", "1", `[tool mcp__baton__count {"word":"a"}]`)
	require.Equal(t, 3, r.code, "stderr: %s", r.stderr)
	require.Contains(t, r.stderr, "budget after 2 turns")
	require.Contains(t, r.stdout, fakeapi.ToolIntroText)

	// An API error: exit 1.
	r = h.run("run", "--json", "[status 500]")
	require.Equal(t, 1, r.code)
	require.Equal(t, runner.StopError, decodeResult(t, r.stdout).StopReason)

	for _, args := range [][]string{
		{"run"},
		{"run", "--tool", "noequals", "hi"},
		{"run", "--tool", "a b=echo", "hi"},
		{"run", "--max-turns", "0", "hi"},
		{"run", "--tools-file", filepath.Join(dir, "missing.json"), "hi"},
		{"run", "--cwd", "/does/not/exist", "hi"},
		{"run", "--max-budget-usd", "NaN", "hi"},
		{"run", "--max-budget-usd", "Inf", "hi"},
		{"run", "--max-budget-usd", "-1", "hi"},
	} {
		r := h.run(args...)
		require.Equal(t, 2, r.code, "baton %v should be a usage error; stderr: %s", args, r.stderr)
	}
}

// --system and --tools-file are read with a bound: an endless file is a usage error at once, not a growing heap.
func TestRunRefusesAnEndlessSystemPrompt(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	h := newCLIHarness(t)
	r := h.run("run", "--system", "/dev/zero", "hi")
	require.Equal(t, 2, r.code, "stderr: %s", r.stderr)
	require.Contains(t, r.stderr, "--system is larger than 1.0 MB")
	r = h.run("run", "--tools-file", "/dev/zero", "hi")
	require.Equal(t, 2, r.code, "stderr: %s", r.stderr)
	require.Contains(t, r.stderr, "--tools-file is larger than 4.0 MB")
	require.Empty(t, h.api.Requests(), "nothing reached the model")
}

// A --system file that blocks (a FIFO whose writer sends nothing) does not make baton run deaf to SIGTERM.
func TestRunStopsOnSIGTERMWhileReadingTheSystemPrompt(t *testing.T) {
	h := newCLIHarness(t)
	fifo := filepath.Join(t.TempDir(), "system.fifo")
	testenv.MakeFIFO(t, fifo)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := h.command(ctx, "run", "--system", fifo, "hi")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	// Opening the write end returns once baton has opened the read end: it is reading (and gets nothing).
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err = cmd.Wait()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "stderr: %s", stderr.String())
	require.Equal(t, 130, exitErr.ExitCode(), "stderr: %s", stderr.String())
	require.NoError(t, ctx.Err(), "baton ran on after SIGTERM")
}
