//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/baton-console/baton/app/internal/procinfo"
)

// proc is one running process as /proc shows it.
type proc = procinfo.Proc

// tree lists pid and every descendant.
func tree(pid int) []proc { return procinfo.Tree(pid) }

// isClaude tells the claude CLI from Baton's own processes by its executable.
func isClaude(p proc, claude string) bool {
	exe, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(p.PID), "exe"))
	if err != nil {
		return p.Name == "claude"
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
			m.claude += p.RSS
			m.claudeProc++
		default:
			m.baton += p.RSS
			if i > 0 && !procinfo.IsReaper(p.PID) { // on Linux each sidecar runs under a reaper: one sidecar, not two
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
			host = p.RSS
		case isClaude(p, claude):
		case procinfo.IsReaper(p.PID):
			reapers += p.RSS
		default:
			sidecars += p.RSS
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
			hasClaude[p.PPID] = true
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
		case procinfo.IsReaper(p.PID):
		case !hasClaude[p.PID]:
			role = roleIndex
		}
		sample[p.PID] = procCPU{role: role, t: cpuTime(p.PID)}
	}
	return sample
}

// cpuTime is a process's CPU time so far, to the nanosecond (procinfo.CPUTime).
func cpuTime(pid int) time.Duration { return procinfo.CPUTime(pid) }
