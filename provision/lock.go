package provision

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// inProcess holds one 1-slot semaphore per lock path, so goroutines of one process queue without polling.
var inProcess sync.Map // lock path → chan struct{}

// installLock serialises provisioning of one data directory: first within this process, then across processes
// through an OS file lock, which the kernel releases when its holder dies (no stale-lock guessing).
type installLock struct {
	path string
	sem  chan struct{}
	file *os.File
}

// acquireInstallLock blocks until the lock is held or ctx ends. onWait is called once, with the holder's PID,
// when another provisioning run holds it. waited reports whether anyone else held it meanwhile.
func acquireInstallLock(ctx context.Context, path string, poll time.Duration, onWait func(holderPID int)) (l *installLock, waited bool, err error) {
	v, _ := inProcess.LoadOrStore(path, make(chan struct{}, 1))
	sem := v.(chan struct{})
	select {
	case sem <- struct{}{}:
	default:
		waited = true
		onWait(os.Getpid())
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return nil, true, ctx.Err()
		}
	}
	for {
		f, ok, err := tryLockFile(path)
		if err != nil {
			<-sem
			return nil, waited, fileError(path, "open the lock file", err)
		}
		if ok {
			// The PID is only for "waiting for process N" messages; the lock itself is the OS lock.
			_ = f.Truncate(0)
			_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())), 0)
			return &installLock{path: path, sem: sem, file: f}, waited, nil
		}
		if !waited {
			waited = true
			onWait(lockHolder(path))
		}
		if err := sleepContext(ctx, poll); err != nil {
			<-sem
			return nil, waited, fmt.Errorf("gave up waiting for another Baton process to finish installing claude: %w", err)
		}
	}
}

// release drops the file lock and the in-process slot. The lock file stays: removing it would race a waiter.
func (l *installLock) release() {
	unlockFile(l.file)
	<-l.sem
}

func lockHolder(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
