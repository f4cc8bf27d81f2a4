package testenv

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// procStat returns a process's state letter and parent pid from /proc (Linux), ok=false when it is gone or
// there is no /proc.
func procStat(pid string) (state, ppid string, ok bool) {
	stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return "", "", false
	}
	// Fields after the command name (which may hold spaces) start after the last ')'.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 2 {
		return "", "", false
	}
	return fields[0], fields[1], true
}

// ChildPIDs lists the live (non-zombie) processes whose parent is pid.
func ChildPIDs(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, ppid, ok := procStat(e.Name()); ok && ppid == strconv.Itoa(pid) && state != "Z" {
			out = append(out, child)
		}
	}
	return out
}

// Alive reports whether pid is a running (non-zombie) process.
func Alive(pid int) bool {
	state, _, ok := procStat(strconv.Itoa(pid))
	return ok && state != "Z"
}

// WaitGone waits until none of pids runs any more: a killed process is gone only once the kernel has ended it
// (a killed sidecar's claude child finishing its last writes, a terminal's SIGKILLed job), a moment after the kill.
func WaitGone(t testing.TB, pids []int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for _, pid := range pids {
		for Alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d still runs %s later", pid, timeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// DescendantPIDs lists the live processes below pid, nearest first (on Linux a sidecar runs under a reaper, so
// claude is not always a grandchild of baton).
func DescendantPIDs(pid int) []int {
	var out []int
	for queue := ChildPIDs(pid); len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		queue = append(queue, ChildPIDs(queue[0])...)
	}
	return out
}
