package console

import (
	"context"
	"encoding/base64"
	"errors"
	"sync"

	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/terminal"
)

// maxCells bounds a terminal's columns and rows, as the contract does.
const maxCells = 1000

// sessionTerminals remembers which sessions have their close watched (so their terminals end with them) and which
// run Claude Code's own TUI (so the console does not wake a second writer of the same transcript).
type sessionTerminals struct {
	mu      sync.Mutex
	watched map[string]bool
	tui     map[string]string // session → terminal running `claude --resume`
}

func newSessionTerminals() *sessionTerminals {
	return &sessionTerminals{watched: map[string]bool{}, tui: map[string]string{}}
}

func (a *API) terminals() (*terminal.Service, error) {
	if a.opts.Terminals == nil {
		return nil, &Error{Code: CodeUnavailable, Message: "This Baton has no terminals; use your own terminal."}
	}
	return a.opts.Terminals, nil
}

func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > maxCells || rows > maxCells {
		return badRequest("A terminal's size must be 1 to %d columns and rows.", maxCells)
	}
	return nil
}

// TerminalOpen opens a shell in the session's folder (its worktree, for a worktree session).
func (a *API) TerminalOpen(p TerminalOpenParams) (TerminalInfo, error) {
	s, err := a.open(p.Session)
	if err != nil {
		return TerminalInfo{}, err
	}
	return a.openFor(s, p.Cols, p.Rows, nil, "Shell")
}

// openFor opens a terminal owned by session s, ended when s closes.
func (a *API) openFor(s *session.Session, cols, rows int, argv []string, title string) (TerminalInfo, error) {
	svc, err := a.terminals()
	if err != nil {
		return TerminalInfo{}, err
	}
	if err := checkSize(cols, rows); err != nil {
		return TerminalInfo{}, err
	}
	info, err := svc.Open(terminal.Spec{Owner: s.ID(), Dir: s.State().Cwd, Argv: argv, Cols: uint16(cols), Rows: uint16(rows), Title: title})
	if err != nil {
		return TerminalInfo{}, &Error{Code: CodeUnavailable, Message: err.Error()}
	}
	a.terms.mu.Lock()
	watch := !a.terms.watched[s.ID()]
	a.terms.watched[s.ID()] = true
	a.terms.mu.Unlock()
	if watch {
		go a.closeTerminalsWith(svc, s)
	}
	return terminalInfo(info), nil
}

func (a *API) closeTerminalsWith(svc *terminal.Service, s *session.Session) {
	<-s.Done()
	svc.CloseOwner(s.ID())
	a.terms.mu.Lock()
	delete(a.terms.watched, s.ID())
	a.terms.mu.Unlock()
}

func terminalInfo(info terminal.Info) TerminalInfo {
	out := TerminalInfo{Terminal: info.ID, Session: info.Owner, Title: info.Title, Exited: info.Exited}
	if info.Exited {
		code := info.ExitCode
		out.ExitCode = &code
	}
	return out
}

// terminalError reads a terminal's failure for people.
func terminalError(err error) error {
	switch {
	case errors.Is(err, terminal.ErrNotFound):
		return &Error{Code: CodeNotFound, Message: err.Error()}
	case errors.Is(err, terminal.ErrExited):
		return badRequest("%s", err.Error())
	}
	return &Error{Code: CodeUnavailable, Message: err.Error()}
}

// TerminalInput sends what the person typed or pasted. It is never logged.
func (a *API) TerminalInput(p TerminalInputParams) (Empty, error) {
	svc, err := a.terminals()
	if err != nil {
		return Empty{}, err
	}
	if err := svc.Write(p.Terminal, []byte(p.Data)); err != nil {
		return Empty{}, terminalError(err)
	}
	return Empty{}, nil
}

// TerminalResize sets a terminal's size.
func (a *API) TerminalResize(p TerminalResizeParams) (Empty, error) {
	svc, err := a.terminals()
	if err != nil {
		return Empty{}, err
	}
	if err := checkSize(p.Cols, p.Rows); err != nil {
		return Empty{}, err
	}
	if err := svc.Resize(p.Terminal, uint16(p.Cols), uint16(p.Rows)); err != nil {
		return Empty{}, terminalError(err)
	}
	return Empty{}, nil
}

// TerminalClose ends a terminal and everything it started.
func (a *API) TerminalClose(p TerminalRef) (Empty, error) {
	svc, err := a.terminals()
	if err != nil {
		return Empty{}, err
	}
	if err := svc.Close(p.Terminal); err != nil {
		return Empty{}, terminalError(err)
	}
	return Empty{}, nil
}

// TerminalList is a session's open terminals.
func (a *API) TerminalList(p TerminalListParams) (TerminalList, error) {
	out := TerminalList{Terminals: []TerminalInfo{}}
	if a.opts.Terminals == nil {
		return out, nil
	}
	for _, info := range a.opts.Terminals.List(p.Session, false) {
		out.Terminals = append(out.Terminals, terminalInfo(info))
	}
	return out, nil
}

// TerminalScrollback is what a terminal keeps of its output, so a reloaded console can redraw it.
func (a *API) TerminalScrollback(p TerminalRef) (TerminalScrollback, error) {
	svc, err := a.terminals()
	if err != nil {
		return TerminalScrollback{}, err
	}
	data, end, info, err := svc.Scrollback(p.Terminal)
	if err != nil {
		return TerminalScrollback{}, terminalError(err)
	}
	ti := terminalInfo(info)
	return TerminalScrollback{Terminal: p.Terminal, Data: base64.StdEncoding.EncodeToString(data), End: int(end),
		Exited: ti.Exited, ExitCode: ti.ExitCode}, nil
}

// TerminalFeed is one console's subscription to every terminal's output. Taken when the console connects,
// before any of its calls run, so nothing a terminal it opens prints can come before the subscription.
type TerminalFeed struct {
	sub *terminal.Subscription // nil: no terminals
}

// WatchTerminals subscribes a console to terminal output. It is a function, not a method, so Wails binds only the
// API's calls.
func WatchTerminals(a *API) *TerminalFeed {
	if a.opts.Terminals == nil {
		return &TerminalFeed{}
	}
	return &TerminalFeed{sub: a.opts.Terminals.Subscribe()}
}

// Forward pushes the output to p until ctx ends or p fails, then ends the subscription.
func (f *TerminalFeed) Forward(ctx context.Context, p Pusher) error {
	if f.sub == nil {
		<-ctx.Done()
		return ctx.Err()
	}
	defer f.sub.Close()
	for {
		outs, err := f.sub.Next(ctx)
		if err != nil {
			return err
		}
		for _, o := range outs {
			if err := p.Terminal(terminalOutput(o)); err != nil {
				return err
			}
		}
	}
}

func terminalOutput(o terminal.Output) TerminalOutput {
	out := TerminalOutput{Terminal: o.Terminal, Offset: int(o.Offset), Data: base64.StdEncoding.EncodeToString(o.Data), Exited: o.Exited}
	if o.Exited {
		code := o.ExitCode
		out.ExitCode = &code
	}
	return out
}
