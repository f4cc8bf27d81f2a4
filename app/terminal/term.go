package terminal

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// hangUpGrace is how long the programs of a closing terminal get to leave after SIGHUP before they are killed.
const hangUpGrace = 2 * time.Second

// term is one running terminal.
type term struct {
	svc        *Service
	id, owner  string
	title      string
	seq        uint64 // its place in the order terminals opened
	pid        int
	pty        proc
	ring       *ring // guarded by svc.mu
	exitedFlag bool  // guarded by svc.mu
	exitCode   int   // guarded by svc.mu
	writeMu    sync.Mutex
	readerDone chan struct{}
	done       chan struct{} // closed once the program exited and its output was delivered
	endOnce    sync.Once
}

func startTerm(s *Service, id string, spec Spec, argv []string) (*term, error) {
	base := s.opts.Env
	if base == nil {
		base = os.Environ()
	}
	// 256 colours, never 24-bit: xterm.js draws 24-bit colours as style attributes, which the console's CSP
	// (style-src 'self') refuses, so a program told COLORTERM=truecolor (here or by the person's own terminal)
	// would print in the default colour.
	env := append(append(withoutVar(base, "COLORTERM"), "TERM=xterm-256color"), spec.Env...)
	cols, rows := spec.Cols, spec.Rows
	if cols == 0 || rows == 0 {
		cols, rows = 80, 24
	}
	p, err := startProc(procSpec{argv: argv, dir: spec.Dir, env: env, cols: cols, rows: rows})
	if err != nil {
		return nil, fmt.Errorf("start %s in a terminal: %w", argv[0], err)
	}
	title := spec.Title
	if title == "" {
		title = argv[0]
	}
	t := &term{svc: s, id: id, owner: spec.Owner, title: title, pid: p.pid(), pty: p,
		ring: newRing(s.opts.Scrollback), readerDone: make(chan struct{}), done: make(chan struct{})}
	go t.read()
	go t.wait()
	return t, nil
}

// read pumps the PTY's output until every program holding the terminal is gone (or it is closed).
func (t *term) read() {
	defer close(t.readerDone)
	buf := make([]byte, 32<<10)
	for {
		n, err := t.pty.Read(buf)
		if n > 0 {
			t.svc.printed(t, buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// wait reports the program's exit once its last output is delivered; whatever it left holding the terminal is
// hung up, as a terminal window's closing does.
func (t *term) wait() {
	defer close(t.done)
	code := t.pty.wait()
	t.hangUpAll()
	<-t.readerDone
	t.svc.exited(t, code)
}

// hangUpAll hangs up every program of the terminal, and kills those still there after a grace.
func (t *term) hangUpAll() {
	t.pty.hangUp()
	select {
	case <-t.readerDone:
	case <-time.After(hangUpGrace):
	}
	t.pty.kill()
}

// end ends the terminal's programs and waits until it is done.
func (t *term) end() {
	t.endOnce.Do(func() {
		select {
		case <-t.done: // already gone: its session id may no longer be ours to signal
		default:
			t.hangUpAll()
			// Programs killed let go of the terminal as they die; wait for that before closing our end.
			select {
			case <-t.readerDone:
			case <-time.After(hangUpGrace):
			}
		}
		_ = t.pty.close()
	})
	<-t.done
}

func (t *term) write(data []byte) error {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	if _, err := t.pty.Write(data); err != nil {
		return fmt.Errorf("the terminal's program no longer reads its input: %w", err)
	}
	return nil
}

func (t *term) resize(cols, rows uint16) error { return t.pty.resize(cols, rows) }

func (t *term) infoLocked() Info {
	return Info{ID: t.id, Owner: t.owner, Title: t.title, Exited: t.exitedFlag, ExitCode: t.exitCode}
}

// withoutVar is a copy of env without name's entries.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
