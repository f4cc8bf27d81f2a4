//go:build windows

package sidecar

import (
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procTree is a started sidecar in a job object of its own: processes it starts join the job, and closing the
// job's last handle (ended, or this host dying) kills every process still in it (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
type procTree struct {
	pid int
	job windows.Handle
}

func startTree(cmd *exec.Cmd) (*procTree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		_ = windows.CloseHandle(job)
		return nil, err
	}
	// The sidecar starts claude only when asked to open a session, so it is in the job before anything below it.
	if err := assignToJob(job, cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = windows.CloseHandle(job)
		return nil, err
	}
	return &procTree{pid: cmd.Process.Pid, job: job}, nil
}

func assignToJob(job windows.Handle, pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(job, h)
}

// ended kills what the sidecar left (its claude, a tool's background processes) by closing the job.
func (t *procTree) ended() { _ = windows.CloseHandle(t.job) }
