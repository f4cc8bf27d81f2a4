//go:build unix

package procinfo

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times (100 on Linux everywhere that matters).
const clockTicks = 100

// CPUTime is a process's CPU time so far, all its threads' (ended ones too), to the nanosecond from the kernel's
// per-process CPU clock. /proc/PID/stat's user + system times are sampled in ticks of 10 ms, too coarse for a
// host's ~50 ms over a reply; they remain the fallback where the clock cannot be read. 0 once the process is gone.
func CPUTime(pid int) time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(processCPUClock(pid), &ts) == nil {
		return time.Duration(ts.Nano())
	}
	return statCPUTime(pid)
}

// processCPUClock is the clock id Linux gives another process's CPU time (clock_getcpuclockid(3)): the pid's
// complement shifted past the clock type bits, with CPUCLOCK_SCHED (2), the scheduler's exact runtime.
func processCPUClock(pid int) int32 {
	return int32(^pid)<<3 | 2
}

// statCPUTime is a process's user + system time from /proc/PID/stat (fields 14 and 15, after the command's parentheses).
func statCPUTime(pid int) time.Duration {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return 0
	}
	fields := strings.Fields(string(data[end+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}
