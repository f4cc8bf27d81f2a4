//go:build linux

package sidecar

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// procTree is a started sidecar with all it starts: on Linux, cmd is the reaper (reaper_linux.go) and pid the
// sidecar below it.
type procTree struct {
	pid      int
	lifeline *os.File // the write end; closed when the host is done with the sidecar (or dies)
}

// startTree starts cmd's program under a reaper, re-executing this binary (/proc/self/exe, which still works after
// an upgrade replaced the file). It returns once the sidecar runs, or with why it could not start.
func startTree(cmd *exec.Cmd) (*procTree, error) {
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	reportR, reportW, err := os.Pipe()
	if err != nil {
		_ = lifeR.Close()
		_ = lifeW.Close()
		return nil, err
	}
	defer reportR.Close()
	cmd.Args = append([]string{"baton-sidecar-reaper", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = "/proc/self/exe"
	cmd.Env = append(cmd.Env, reaperEnv+"=1")
	cmd.ExtraFiles = []*os.File{lifeR, reportW} // lifelineFD, reportFD
	err = cmd.Start()
	_ = lifeR.Close()
	_ = reportW.Close()
	if err != nil {
		_ = lifeW.Close()
		return nil, err
	}
	line, _ := bufio.NewReader(reportR).ReadString('\n')
	if pid, ok := strings.CutPrefix(strings.TrimSpace(line), "pid "); ok {
		if n, err := strconv.Atoi(pid); err == nil {
			return &procTree{pid: n, lifeline: lifeW}, nil
		}
	}
	_ = lifeW.Close()
	_ = cmd.Wait()
	if msg, ok := strings.CutPrefix(strings.TrimSpace(line), "error "); ok {
		return nil, errors.New(msg)
	}
	return nil, fmt.Errorf("the sidecar's reaper ended without starting it (%s)", cmd.ProcessState)
}

// ended is called once the reaper was waited for: by then the sidecar and everything below it have ended.
func (t *procTree) ended() { _ = t.lifeline.Close() }

// descendants lists the live processes below pid, from /proc's parent links.
func descendants(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The fields after the command name (which may hold spaces or parentheses) start after the last ')'.
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			children[ppid] = append(children[ppid], child)
		}
	}
	var out []int
	for queue := children[pid]; len(queue) > 0; queue = queue[1:] {
		out = append(out, queue[0])
		queue = append(queue, children[queue[0]]...)
	}
	return out
}
