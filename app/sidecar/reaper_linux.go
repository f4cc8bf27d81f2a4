//go:build linux

package sidecar

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A session's processes do not all stay below their parents: claude's Bash tool runs each command in a process
// group of its own, and a command's background child (`server &`) is orphaned when its shell exits. On Linux the
// sidecar therefore runs under a reaper: the binary that started it (whatever imports this package), re-executed
// with reaperEnv set. The reaper is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so every orphan below the
// sidecar is reparented to it rather than to init; when the sidecar ends, however it ends, the reaper stops all
// that is left, reaps it (no zombies), and only then exits with the sidecar's status. A host that dies closes the
// lifeline, and the reaper ends the sidecar too if it has not ended by itself.
const reaperEnv = "BATON_SIDECAR_REAPER"

// Reaper file descriptors: the lifeline (read end; EOF = the host is gone) and the report (write end; the
// sidecar's pid, or why it could not start).
const (
	lifelineFD = 3
	reportFD   = 4
)

// Grace periods: how long a sidecar whose host vanished may shut down by itself (it sees its stdin close), and
// how long what is left after the sidecar ended may stop on SIGTERM before it is killed.
const (
	orphanGrace = 10 * time.Second
	stopGrace   = 3 * time.Second
)

func init() {
	if os.Getenv(reaperEnv) != "1" {
		return
	}
	os.Exit(runReaper(os.Args[1:]))
}

// runReaper starts args (the sidecar) and supervises it; it returns the exit code to leave with.
func runReaper(args []string) int {
	syscall.CloseOnExec(lifelineFD)
	syscall.CloseOnExec(reportFD)
	report := os.NewFile(reportFD, "report")
	fail := func(err error) int {
		fmt.Fprintf(report, "error %s\n", err)
		return 127
	}
	if len(args) == 0 {
		return fail(errors.New("no sidecar to run"))
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fail(fmt.Errorf("become a subreaper: %w", err))
	}
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	pid, err := syscall.ForkExec(args[0], args, &syscall.ProcAttr{Env: withoutReaperEnv(os.Environ()),
		Files: []uintptr{0, 1, 2}})
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(report, "pid %d\n", pid)
	_ = report.Close()
	go forwardSignals(signals, pid)
	go watchLifeline(os.NewFile(lifelineFD, "lifeline"), pid)
	dropFilePages()
	status := reapUntil(pid)
	endDescendants()
	return exitLike(status)
}

// forwardSignals passes a stop request on to the sidecar, which shuts its sessions down; its exit ends the rest.
func forwardSignals(signals <-chan os.Signal, pid int) {
	for sig := range signals {
		_ = syscall.Kill(pid, sig.(syscall.Signal))
	}
}

// watchLifeline ends the sidecar once the host is gone and the sidecar has not ended by itself within the grace.
func watchLifeline(lifeline *os.File, pid int) {
	_, _ = io.Copy(io.Discard, lifeline)
	time.Sleep(orphanGrace)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// reapUntil reaps children (orphans that ended by themselves among them) until pid has ended; its status.
func reapUntil(pid int) syscall.WaitStatus {
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || got == pid {
			return ws
		}
	}
}

// endDescendants stops everything still below the reaper: SIGTERM first (claude stops its shells), then SIGKILL
// for what outlives stopGrace. A subreaper's descendants all become its children as their parents die, so no
// children left means no descendants left.
func endDescendants() {
	signalDescendants(syscall.SIGTERM)
	deadline := time.Now().Add(stopGrace)
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return // ECHILD: nothing is left
		case got > 0:
			continue
		}
		if time.Now().After(deadline) {
			signalDescendants(syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signalDescendants signals every live process below this one (read from /proc's parent links).
func signalDescendants(sig syscall.Signal) {
	for _, pid := range descendants(os.Getpid()) {
		_ = syscall.Kill(pid, sig)
	}
}

func withoutReaperEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, reaperEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// exitLike is the code that reports the sidecar's end to the host as if the host had waited for it: the same exit
// status, or the same signal (re-raised on the reaper, which has nothing left to do).
func exitLike(ws syscall.WaitStatus) int {
	if !ws.Signaled() {
		return ws.ExitStatus()
	}
	sig := ws.Signal()
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second) // a signal whose default is not to terminate ends here instead
	return 128 + int(sig)
}
