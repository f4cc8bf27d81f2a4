package console

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/terminal"
)

// sleepTimeout bounds putting a session to sleep before its TUI opens.
const sleepTimeout = 30 * time.Second

// TerminalSignIn runs the unmodified `claude auth login` in a terminal of Baton's own, with Baton's environment (its
// config dir). Baton only carries the keystrokes; the sign-in watcher sees the new state when claude saves it.
func (a *API) TerminalSignIn(p TerminalSizeParams) (TerminalInfo, error) {
	svc, err := a.terminals()
	if err != nil {
		return TerminalInfo{}, err
	}
	if err := checkSize(p.Cols, p.Rows); err != nil {
		return TerminalInfo{}, err
	}
	exe, err := a.claude()
	if err != nil {
		return TerminalInfo{}, err
	}
	dir, err := homeDir()
	if err != nil {
		return TerminalInfo{}, err
	}
	info, err := svc.Open(terminal.Spec{Dir: dir, Argv: []string{exe, "auth", "login"}, Cols: uint16(p.Cols), Rows: uint16(p.Rows), Title: "Sign in"})
	if err != nil {
		return TerminalInfo{}, &Error{Code: CodeUnavailable, Message: err.Error()}
	}
	return terminalInfo(info), nil
}

func (a *API) claude() (string, error) {
	if a.opts.Claude == nil {
		return "", &Error{Code: CodeUnavailable, Message: "Claude Code is not installed here; wait for the installation to finish."}
	}
	exe, err := a.opts.Claude()
	if err != nil || exe == "" {
		return "", &Error{Code: CodeUnavailable, Message: "Claude Code is not installed yet; wait for the installation to finish."}
	}
	return exe, nil
}

// TerminalClaudeCode puts the session to sleep (one writer per transcript) and runs Claude Code's own TUI on it;
// the console's prompts wait until the TUI exits, and the next one wakes the session from the transcript the TUI
// wrote.
func (a *API) TerminalClaudeCode(p TerminalOpenParams) (TerminalInfo, error) {
	s, err := a.open(p.Session)
	if err != nil {
		return TerminalInfo{}, err
	}
	exe, err := a.claude()
	if err != nil {
		return TerminalInfo{}, err
	}
	if running := a.tuiOf(s.ID()); running != "" {
		return TerminalInfo{}, badRequest("Claude Code is already open on this session in another terminal.")
	}
	c, cancel := context.WithTimeout(context.Background(), sleepTimeout)
	defer cancel()
	if err := s.Sleep(c); err != nil {
		if errors.Is(err, session.ErrBusy) {
			return TerminalInfo{}, badRequest("The session is working; wait for its turn to end (or cancel it), then open Claude Code.")
		}
		return TerminalInfo{}, err
	}
	info, err := a.openFor(s, p.Cols, p.Rows, []string{exe, "--resume", s.ID()}, "Claude Code")
	if err != nil {
		return TerminalInfo{}, err
	}
	a.terms.mu.Lock()
	a.terms.tui[s.ID()] = info.Terminal
	a.terms.mu.Unlock()
	go a.tuiEnded(s.ID(), info.Terminal)
	return info, nil
}

// tuiEnded lets the console write to the session again once its TUI exits.
func (a *API) tuiEnded(session, id string) {
	if done, err := a.opts.Terminals.Done(id); err == nil {
		<-done
	}
	a.terms.mu.Lock()
	if a.terms.tui[session] == id {
		delete(a.terms.tui, session)
	}
	a.terms.mu.Unlock()
}

// tuiOf is the terminal running Claude Code's TUI on session ("" when none). A TUI that exited counts as none at
// once: its exit reaches the console before tuiEnded runs, and the console's next prompt must not be refused.
func (a *API) tuiOf(session string) string {
	a.terms.mu.Lock()
	defer a.terms.mu.Unlock()
	id := a.terms.tui[session]
	if id != "" && a.opts.Terminals.Exited(id) {
		delete(a.terms.tui, session)
		return ""
	}
	return id
}

// writable is an open session the console may write to (and so wake): not while Claude Code's TUI runs on it, as
// two writers of one transcript would interleave.
func (a *API) writable(id string) (*session.Session, error) {
	if a.tuiOf(id) != "" {
		return nil, &Error{Code: CodeUnavailable, Message: "Claude Code's own TUI is open on this session; exit it (/exit) to continue here."}
	}
	return a.open(id)
}

// homeDir is where the sign-in's terminal starts: no project's folder.
func homeDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find your home folder for the sign-in: %w", err)
	}
	return home, nil
}
