package session

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// StartError is a session start asked for wrongly: a folder that is not there or cannot be read, options that
// cannot go together, a malformed id. The caller can fix it (the console answers bad_request, not internal), so
// the message says what to do.
type StartError struct {
	msg string
	err error
}

func (e *StartError) Error() string { return e.msg }

// Unwrap gives the cause (a *fs.PathError for a folder), so errors.Is(err, fs.ErrNotExist) still works.
func (e *StartError) Unwrap() error { return e.err }

func startError(cause error, format string, a ...any) error {
	return &StartError{msg: fmt.Sprintf(format, a...), err: cause}
}

// checkFolder makes sure a session can work in dir: it exists, is a folder and can be listed (claude reads it).
func checkFolder(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR): // ENOTDIR: a path through a file
		return startError(err, "the folder %s does not exist; choose an existing project folder", dir)
	case errors.Is(err, fs.ErrPermission):
		return startError(err, "Baton may not open the folder %s; choose another folder or allow your user to read it", dir)
	case err != nil:
		return startError(err, "Baton cannot open the folder %s (%v); choose another project folder", dir, err)
	case !fi.IsDir():
		return startError(nil, "%s is a file, not a folder; choose the project folder that holds it", dir)
	}
	f, err := os.Open(dir)
	if err == nil {
		_, err = f.Readdirnames(1)
		_ = f.Close()
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return startError(err, "Baton may not read the folder %s; choose another folder or allow your user to read it", dir)
	}
	return nil
}
