//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// proc is one running process as /proc shows it.
type proc struct {
	pid, ppid int
	name      string
	rss       int64 // bytes
	anon      int64 // the part of rss that is the process's own memory (heap, stacks), not mapped files
}

// tree lists pid and every descendant.
func tree(pid int) []proc {
	all := map[int][]proc{}
	var root *proc
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := readProc(n)
		if !ok {
			continue
		}
		all[p.ppid] = append(all[p.ppid], p)
		if n == pid {
			root = &p
		}
	}
	if root == nil {
		return nil
	}
	out := []proc{*root}
	for i := 0; i < len(out); i++ {
		out = append(out, all[out[i].pid]...)
	}
	return out
}

func readProc(pid int) (proc, bool) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return proc{}, false
	}
	p := proc{pid: pid}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "Name":
			p.name = value
		case "PPid":
			p.ppid, _ = strconv.Atoi(value)
		case "State":
			if strings.HasPrefix(value, "Z") {
				return proc{}, false
			}
		case "VmRSS":
			p.rss = kilobytes(value)
		case "RssAnon":
			p.anon = kilobytes(value)
		}
	}
	return p, true
}

// isReaper tells a sidecar's reaper (the host's executable run as baton-sidecar-reaper) by its argv[0].
func isReaper(p proc) bool {
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p.pid), "cmdline"))
	return err == nil && bytes.HasPrefix(cmdline, []byte("baton-sidecar-reaper\x00"))
}

// isClaude tells the claude CLI from Baton's own processes by its executable.
func isClaude(p proc, claude string) bool {
	exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(p.pid), "exe"))
	if err != nil {
		return p.name == "claude"
	}
	real, err := filepath.EvalSymlinks(claude)
	if err != nil {
		real = claude
	}
	return exe == real || exe == claude
}

// memory sums a process tree's RSS: Baton's own processes (host, sidecars and their reapers) and the claude
// children.
type memory struct {
	baton, claude        int64
	sidecars, claudeProc int
}

func measure(pid int, claude string) memory {
	var m memory
	for i, p := range tree(pid) {
		switch {
		case isClaude(p, claude):
			m.claude += p.rss
			m.claudeProc++
		default:
			m.baton += p.rss
			if i > 0 && !isReaper(p) { // on Linux each sidecar runs under a reaper: one sidecar, not two
				m.sidecars++
			}
		}
	}
	return m
}

// batonParts splits Baton's RSS in a host's tree: the host itself, its sidecars, and their reapers.
func batonParts(pid int, claude string) (host, sidecars, reapers int64) {
	for i, p := range tree(pid) {
		switch {
		case i == 0:
			host = p.rss
		case isClaude(p, claude):
		case isReaper(p):
			reapers += p.rss
		default:
			sidecars += p.rss
		}
	}
	return host, sidecars, reapers
}

func kilobytes(value string) int64 {
	kb, _ := strconv.ParseInt(strings.TrimSuffix(value, " kB"), 10, 64)
	return kb * 1024
}

// pss is the process's proportional share of memory: shared pages (libraries mapped by many processes) count by
// the share each holds, so it tells what the process itself costs the machine.
func pss(pid int) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if value, ok := strings.CutPrefix(line, "Pss:"); ok {
			return kilobytes(strings.TrimSpace(value))
		}
	}
	return 0
}

// cpuSpent is the CPU time (user + system) of a host's process tree, by role. sidecar is every sidecar of the
// host; index is the part of it spent by sidecars with no claude child (the session index's mapper, issue 26).
type cpuSpent struct {
	host, sidecar, index, claude time.Duration
}

// cpuRole is what a process of the tree is, for the CPU figure.
type cpuRole int

const (
	roleHost cpuRole = iota
	roleSidecar
	roleIndex // a sidecar with no claude child: the session index's mapper
	roleClaude
)

// procCPU is one process's CPU time so far and its role.
type procCPU struct {
	role cpuRole
	t    time.Duration
}

// cpuSample is a tree's CPU times per process at one moment. Differences are taken per process: a process that
// ended between two samples (the index's idle mapper does) would otherwise subtract all its earlier CPU from the
// window's figure, and one that started counts from zero.
type cpuSample map[int]procCPU

func (after cpuSample) since(before cpuSample) cpuSpent {
	var c cpuSpent
	for pid, p := range after {
		t := p.t
		if b, ok := before[pid]; ok {
			t -= b.t
		}
		switch p.role {
		case roleHost:
			c.host += t
		case roleClaude:
			c.claude += t
		case roleIndex:
			c.index += t
			c.sidecar += t
		case roleSidecar:
			c.sidecar += t
		}
	}
	return c
}

// cpuByRole reads the CPU time of pid (the host), its sidecars and their claude children so far. /proc is read
// rather than getrusage's children, which counts only children waited for: the sidecars are the host's, still
// running, and claude is their child. On Linux each sidecar runs under a reaper (the host's executable again,
// app/sidecar/reaper_linux.go), so a sidecar is the host's grandchild: roles go by what a process is, not by
// its parent. A reaper's own CPU counts with the sidecars'.
func cpuByRole(pid int, claude string) cpuSample {
	procs := tree(pid)
	hasClaude := map[int]bool{}
	for _, p := range procs {
		if isClaude(p, claude) {
			hasClaude[p.ppid] = true
		}
	}
	sample := cpuSample{}
	for i, p := range procs {
		role := roleSidecar
		switch {
		case i == 0:
			role = roleHost
		case isClaude(p, claude):
			role = roleClaude
		case isReaper(p):
		case !hasClaude[p.pid]:
			role = roleIndex
		}
		sample[p.pid] = procCPU{role: role, t: cpuTime(p.pid)}
	}
	return sample
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/PID/stat's times (100 on Linux everywhere that matters).
const clockTicks = 100

// cpuTime is a process's CPU time so far, all its threads' (ended ones too), to the nanosecond from the kernel's
// per-process CPU clock. /proc/PID/stat's user + system times are sampled in ticks of 10 ms, too coarse for the
// host's ~50 ms over a reply; they remain the fallback where the clock cannot be read.
func cpuTime(pid int) time.Duration {
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
