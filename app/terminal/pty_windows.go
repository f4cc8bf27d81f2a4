package terminal

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"github.com/charmbracelet/x/conpty"
	"golang.org/x/sys/windows"
)

// winProc is a program in a Windows pseudo console (ConPTY), in a job object of its own so every program it
// starts can be ended with it, and none outlives Baton (the job kills them when its last handle closes).
type winProc struct {
	cpty    *conpty.ConPty
	in, out *os.File // our own copies of the console's pipe ends, so closing the console never pulls a read's handle
	process windows.Handle
	job     windows.Handle
	id      int
	mu      sync.Mutex // guards closed: the console's handle is freed once closed, so nothing may use it after
	closed  bool
}

func startProc(spec procSpec) (proc, error) {
	if err := windows.NewLazySystemDLL("kernel32.dll").NewProc("CreatePseudoConsole").Find(); err != nil {
		return nil, fmt.Errorf("this Windows has no pseudo console (ConPTY needs Windows 10 1809 or later): %w", err)
	}
	cpty, err := conpty.New(int(spec.cols), int(spec.rows), 0)
	if err != nil {
		return nil, err
	}
	p := &winProc{cpty: cpty}
	if err := p.start(spec); err != nil {
		p.hangUp()
		_ = p.close()
		return nil, err
	}
	return p, nil
}

func (p *winProc) start(spec procSpec) error {
	var err error
	if p.in, err = dupFile(p.cpty.InPipeWriteFd(), "conpty-in"); err != nil {
		return err
	}
	if p.out, err = dupFile(p.cpty.OutPipeReadFd(), "conpty-out"); err != nil {
		return err
	}
	if p.job, err = newKillOnCloseJob(); err != nil {
		return err
	}
	// CreateProcess runs argv[0] as given; LookPath finds it on PATH with its extension (.exe, .com…).
	exe, err := exec.LookPath(spec.argv[0])
	if err != nil {
		return err
	}
	pid, handle, err := p.cpty.Spawn(exe, spec.argv, &syscall.ProcAttr{Dir: spec.dir, Env: spec.env})
	if err != nil {
		return err
	}
	p.id, p.process = pid, windows.Handle(handle)
	// The program runs already; what it starts before this line escapes the job, which a shell does not do in
	// the microseconds it takes.
	if err := windows.AssignProcessToJobObject(p.job, p.process); err != nil {
		_ = windows.TerminateProcess(p.process, 1)
		return fmt.Errorf("put the terminal's program into a job: %w", err)
	}
	return nil
}

// dupFile duplicates one of the console's pipe handles into a file of our own.
func dupFile(h uintptr, name string) (*os.File, error) {
	self := windows.CurrentProcess()
	var dup windows.Handle
	if err := windows.DuplicateHandle(self, windows.Handle(h), self, &dup, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, fmt.Errorf("duplicate the pseudo console's pipe: %w", err)
	}
	return os.NewFile(uintptr(dup), name), nil
}

func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create a job for the terminal: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("set up the terminal's job: %w", err)
	}
	return job, nil
}

func (p *winProc) Read(b []byte) (int, error)  { return p.out.Read(b) }
func (p *winProc) Write(b []byte) (int, error) { return p.in.Write(b) }
func (p *winProc) pid() int                    { return p.id }

func (p *winProc) resize(cols, rows uint16) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errors.New("the terminal's console is closed")
	}
	return p.cpty.Resize(int(cols), int(rows))
}

func (p *winProc) wait() int {
	if _, err := windows.WaitForSingleObject(p.process, windows.INFINITE); err != nil {
		return -1
	}
	var code uint32
	if err := windows.GetExitCodeProcess(p.process, &code); err != nil {
		return -1
	}
	return int(code)
}

// hangUp closes the pseudo console: its programs get CTRL_CLOSE_EVENT, and once the console host has written out
// what it held, the output pipe ends and the reader sees its end.
func (p *winProc) hangUp() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		_ = p.cpty.Close()
	}
}

func (p *winProc) kill() {
	if p.job != 0 {
		_ = windows.TerminateJobObject(p.job, 1)
	}
}

func (p *winProc) close() error {
	var errs []error
	for _, f := range []*os.File{p.in, p.out} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	for _, h := range []windows.Handle{p.job, p.process} {
		if h != 0 {
			errs = append(errs, windows.CloseHandle(h))
		}
	}
	return errors.Join(errs...)
}
