//go:build unix

// Package procinfo reads what the benches measure of a process tree from Linux's /proc: each process's parent,
// name and memory, its argv[0], and its CPU time. Elsewhere it finds no processes.
package procinfo

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Proc is one running process as /proc shows it. Sizes are bytes.
type Proc struct {
	PID, PPID int
	Name      string
	RSS       int64
	Anon      int64 // the part of RSS that is the process's own memory (heap, stacks)
	File      int64 // the part of RSS that is mapped files (its executable's and libraries' pages)
}

// Tree lists pid first, then every descendant, parents before their children; nil once pid is gone.
func Tree(pid int) []Proc {
	children := map[int][]Proc{}
	var root *Proc
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		p, ok := Read(n)
		if !ok {
			continue
		}
		children[p.PPID] = append(children[p.PPID], p)
		if n == pid {
			root = &p
		}
	}
	if root == nil {
		return nil
	}
	out := []Proc{*root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i].PID]...)
	}
	return out
}

// Read reads one process from /proc/PID/status; false once it is gone or a zombie (it holds nothing then).
func Read(pid int) (Proc, bool) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return Proc{}, false
	}
	p := Proc{PID: pid}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "Name":
			p.Name = value
		case "PPid":
			p.PPID, _ = strconv.Atoi(value)
		case "State":
			if strings.HasPrefix(value, "Z") {
				return Proc{}, false
			}
		case "VmRSS":
			p.RSS = kilobytes(value)
		case "RssAnon":
			p.Anon = kilobytes(value)
		case "RssFile":
			p.File = kilobytes(value)
		}
	}
	return p, true
}

// Argv0 is a process's argv[0] ("" once it is gone).
func Argv0(pid int) string {
	cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return ""
	}
	first, _, _ := bytes.Cut(cmdline, []byte{0})
	return string(first)
}

// IsReaper tells a sidecar's reaper (the host's executable run as baton-sidecar-reaper) by its argv[0].
func IsReaper(pid int) bool { return Argv0(pid) == "baton-sidecar-reaper" }

func kilobytes(value string) int64 {
	kb, _ := strconv.ParseInt(strings.TrimSuffix(value, " kB"), 10, 64)
	return kb * 1024
}
