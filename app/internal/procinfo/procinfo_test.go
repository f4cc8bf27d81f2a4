//go:build linux

package procinfo

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

const busyFor = 30 * time.Millisecond

// TestMain runs this test binary as the measured child when asked: it spends busyFor of CPU (by its own clock, so
// no timing decides the test), says so, and waits for its stdin to close.
func TestMain(m *testing.M) {
	if os.Getenv("PROCINFO_CHILD") == "1" {
		for ownCPU() < busyFor {
		}
		os.Stdout.WriteString("ready\n")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func ownCPU() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

func TestReadsAChildsTreeEntryArgvAndCPU(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe)
	cmd.Args = []string{"procinfo-child"}
	cmd.Env = append(os.Environ(), "PROCINFO_CHILD=1")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)
	child := cmd.Process.Pid

	assert.GreaterOrEqual(t, CPUTime(child), busyFor, "the child's own clock said it spent that much")
	assert.GreaterOrEqual(t, CPUTime(child)+20*time.Millisecond, statCPUTime(child), "/proc's ticks tell the same time, coarsely")
	assert.Equal(t, "procinfo-child", Argv0(child))
	assert.False(t, IsReaper(child))

	tree := Tree(os.Getpid())
	require.NotEmpty(t, tree)
	assert.Equal(t, os.Getpid(), tree[0].PID)
	var found *Proc
	for i := range tree {
		if tree[i].PID == child {
			found = &tree[i]
		}
	}
	require.NotNil(t, found, "the child is in this process's tree")
	assert.Equal(t, os.Getpid(), found.PPID)
	assert.Positive(t, found.RSS)
	assert.LessOrEqual(t, found.Anon+found.File, found.RSS+found.RSS/10) // RSS also counts shared memory

	require.NoError(t, stdin.Close())
	require.NoError(t, cmd.Wait())
	_, ok := Read(child)
	assert.False(t, ok, "a reaped process is gone")
	assert.Zero(t, CPUTime(child))
	assert.Nil(t, Tree(child))
}
