package terminal

import "io"

// proc is a program running in a pseudo-terminal, as its platform starts it: a PTY with its own session on Linux
// and macOS, a ConPTY in a job object on Windows.
type proc interface {
	io.Reader // what the terminal shows
	io.Writer // what is typed into it
	pid() int
	// wait waits for the program to end and says its exit code (128+N for a signal N, as shells do).
	wait() int
	resize(cols, rows uint16) error
	// hangUp asks every program of the terminal to leave, as a terminal window's closing does.
	hangUp()
	// kill ends every program of the terminal still there.
	kill()
	// close lets go of our end of the terminal.
	close() error
}

// procSpec is what a platform needs to start a program in a terminal.
type procSpec struct {
	argv       []string
	dir        string
	env        []string
	cols, rows uint16
}
