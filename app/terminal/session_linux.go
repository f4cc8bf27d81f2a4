package terminal

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// signalSession signals every process of session sid, by pid: a shell's background jobs have process groups of
// their own, so signalling the shell's group alone would leave them running.
func signalSession(sid int, sig syscall.Signal) {
	_ = syscall.Kill(-sid, sig)
	for _, pid := range sessionMembers(sid) {
		_ = syscall.Kill(pid, sig)
	}
}

// sessionMembers lists the processes whose session is sid (/proc/PID/stat's sixth field).
func sessionMembers(sid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if s, ok := sessionOf(pid); ok && s == sid {
			pids = append(pids, pid)
		}
	}
	return pids
}

func sessionOf(pid int) (int, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command in parentheses may hold spaces; the fields after its closing parenthesis are plain.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(data[i+1:])
	if len(fields) < 4 {
		return 0, false
	}
	sid, err := strconv.Atoi(string(fields[3]))
	return sid, err == nil
}
