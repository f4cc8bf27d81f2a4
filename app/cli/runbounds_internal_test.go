package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// commandHelperEnv makes this test binary a command for runCommand: "print:N" prints N bytes and an end marker,
// "hold" blocks until killed (a background child holding its parent's pipes). No program on PATH is needed but sh.
const commandHelperEnv = "BATON_RUNCOMMAND_HELPER"

func init() {
	mode, ok := os.LookupEnv(commandHelperEnv)
	if !ok {
		return
	}
	if n, ok := strings.CutPrefix(mode, "print:"); ok {
		size, _ := strconv.Atoi(n)
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for size > 0 {
			k := min(size, len(chunk))
			_, _ = os.Stdout.Write(chunk[:k])
			size -= k
		}
		fmt.Print("THE-END")
		os.Exit(0)
	}
	select {} // "hold": until the test kills it
}

// helperCommand is a shell command running this test binary in mode.
func helperCommand(t *testing.T, mode string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the commands here are sh commands")
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(commandHelperEnv, mode)
	return "'" + exe + "'"
}

// A command printing far more than the model reads: the call keeps the head and the tail, says how much it cut,
// and holds no more than its bound while the command runs.
func TestRunCommandKeepsTheHeadAndTailOfAHugeOutput(t *testing.T) {
	const printed = 48 << 20
	out, err := runCommand(context.Background(), helperCommand(t, fmt.Sprintf("print:%d", printed)), t.TempDir(), json.RawMessage(`{}`))
	require.NoError(t, err)
	require.LessOrEqual(t, len(out.Text), commandOutputMax+200, "the model reads at most the bound")
	require.True(t, strings.HasPrefix(out.Text, "xxxx"))
	require.True(t, strings.HasSuffix(out.Text, "THE-END"), "the tail of the output is kept")
	require.Contains(t, out.Text, "47.0 MB cut: the command printed 48.0 MB")
}

func TestOutputCapRetainsAtMostItsBound(t *testing.T) {
	c := newOutputCap(commandOutputMax*3/4, commandOutputMax/4)
	chunk := bytes.Repeat([]byte("y"), 10_000) // not a divisor of the bounds, so every compaction path runs
	for range 6400 {
		_, _ = c.Write(chunk)
		require.LessOrEqual(t, c.retained(), commandOutputMax*3/4+2*(commandOutputMax/4)+len(chunk))
	}
	require.Equal(t, int64(64_000_000), c.total)
	require.Equal(t, int64(64_000_000-commandOutputMax), c.cut())

	small := newOutputCap(4, 4)
	_, _ = small.Write([]byte("abcdefgh"))
	require.Equal(t, "abcdefgh", small.String(), "nothing is cut when everything fits")
	_, _ = small.Write([]byte("ij"))
	require.Equal(t, "abcd\n… [2 bytes cut: the command printed 10 bytes; the first 4 bytes and the last 4 bytes are kept] …\nghij", small.String())
}

// A command that starts a background child returns when the command exits, not when the child (which still
// holds the output pipe) does; the child keeps running.
func TestRunCommandReturnsWhileItsBackgroundChildRuns(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	command := helperCommand(t, "hold") + " & echo $! > " + pidFile + "; echo started"
	t.Cleanup(func() {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid > 0 {
			testenv.Kill(pid)
			testenv.WaitGone(t, []int{pid}, 20*time.Second)
		}
	})
	type returned struct {
		text string
		err  error
	}
	done := make(chan returned, 1)
	go func() {
		out, err := runCommand(context.Background(), command, dir, json.RawMessage(`{}`))
		done <- returned{out.Text, err}
	}()
	var r returned
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the call waited for the background child, which holds its output pipe")
	}
	require.NoError(t, r.err)
	require.Equal(t, "started\n", r.text)
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	require.True(t, testenv.Alive(pid), "the background child still runs after the call returned")
}

func TestReadFileLimitedRefusesAnEndlessFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := readFileLimited(context.Background(), "--system", "/dev/zero", systemFileMax)
	require.EqualError(t, err, "--system is larger than 1.0 MB (/dev/zero): give a smaller file")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = readFileLimited(ctx, "--tools-file", "/dev/zero", toolsFileMax)
	require.ErrorIs(t, err, context.Canceled)
}
