package provision

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// Sentinel causes, matched with errors.Is.
var (
	ErrNotFound     = errors.New("not found (HTTP 404)")
	ErrStalled      = errors.New("the connection stalled: no bytes arrived for too long")
	ErrTooLarge     = errors.New("larger than the manifest's size")
	ErrDiskFull     = errors.New("not enough disk space")
	ErrNotWritable  = errors.New("the data directory is not writable")
	ErrNoRegistry   = errors.New("no npm registry is configured")
	ErrNoExecutable = errors.New("no claude executable is available")
)

// HTTPStatusError is a response Baton cannot use.
type HTTPStatusError struct {
	Code       int
	Status     string
	RetryAfter int // seconds asked for by the server, 0 when absent
}

func (e *HTTPStatusError) Error() string {
	if e.Status != "" {
		return "HTTP " + e.Status
	}
	return fmt.Sprintf("HTTP %d", e.Code)
}

// Is lets errors.Is(err, ErrNotFound) match 404 and 410.
func (e *HTTPStatusError) Is(target error) bool {
	return target == ErrNotFound && (e.Code == 404 || e.Code == 410)
}

// ChecksumError is a download whose sha256 is not the manifest's.
type ChecksumError struct {
	Expected, Got string
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("checksum mismatch: expected sha256 %s, got %s", e.Expected, e.Got)
}

// SizeError is a download whose length is not the manifest's.
type SizeError struct {
	Expected, Got int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("wrong size: expected %d bytes, the server offered %d", e.Expected, e.Got)
}

// UnsafeArchiveError is an npm tarball that Baton refuses to unpack.
type UnsafeArchiveError struct {
	Member, Reason string
}

func (e *UnsafeArchiveError) Error() string {
	return fmt.Sprintf("refused the package tarball: member %q %s", e.Member, e.Reason)
}

// UnreachableError is a host Baton could not connect to at all.
type UnreachableError struct {
	Host string
	Err  error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot connect to %s (offline, or blocked by a proxy or firewall): %v", e.Host, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// LocalError is a fault on this machine (disk full, read-only directory); no other source can fix it.
type LocalError struct {
	Path string
	Kind error // ErrDiskFull or ErrNotWritable
	Err  error // the system's error
}

func (e *LocalError) Error() string {
	cause := e.Err
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err // the path is already in the message
	}
	if errors.Is(e.Kind, ErrDiskFull) {
		return fmt.Sprintf("not enough disk space to write %s (%v)", e.Path, cause)
	}
	return fmt.Sprintf("cannot write %s (%v)", e.Path, cause)
}

func (e *LocalError) Unwrap() []error { return []error{e.Kind, e.Err} }

// SourceAttempt records one source that was tried and why it failed.
type SourceAttempt struct {
	Source string // "cdn" or "npm"
	URL    string // without credentials
	Err    error
}

// Error is the failure of a whole provisioning run: every source tried, what each said, and what to do.
type Error struct {
	Version  string
	Platform string
	Attempts []SourceAttempt
	Local    error // set when a local fault ended the run early
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "could not install claude %s for %s", e.Version, e.Platform)
	if e.Local != nil {
		fmt.Fprintf(&b, ": %v", e.Local)
	}
	for _, a := range e.Attempts {
		fmt.Fprintf(&b, "\n  - %s %s: %v", sourceLabel(a.Source), a.URL, a.Err)
	}
	b.WriteString("\nWhat to do: ")
	if e.Local != nil {
		if errors.Is(e.Local, ErrDiskFull) {
			b.WriteString("free disk space (about 1 GB) or set BATON_DATA_DIR to a roomier disk, then retry `baton provision`.")
		} else {
			b.WriteString("make the directory writable or set BATON_DATA_DIR to a writable directory, then retry `baton provision`.")
		}
		return b.String()
	}
	b.WriteString("check your connection and retry `baton provision`; or set BATON_NPM_REGISTRY to an npm registry you can reach; " +
		"or point CLAUDE_CODE_EXECUTABLE at a claude " + e.Version + " executable.")
	return b.String()
}

// Unwrap exposes the local fault and every source's error to errors.Is / errors.As.
func (e *Error) Unwrap() []error {
	errs := make([]error, 0, len(e.Attempts)+1)
	if e.Local != nil {
		errs = append(errs, e.Local)
	}
	for _, a := range e.Attempts {
		errs = append(errs, a.Err)
	}
	return errs
}

func sourceLabel(source string) string {
	switch source {
	case SourceCDN:
		return "release CDN"
	case SourceNPM:
		return "npm registry"
	}
	return source
}

// retryable reports a transient network failure worth another attempt at the same URL.
func retryable(err error) bool {
	var st *HTTPStatusError
	if errors.As(err, &st) {
		return st.Code == 408 || st.Code == 429 || st.Code >= 500
	}
	var ne net.Error
	switch {
	case errors.Is(err, ErrStalled), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, errTruncated), errors.Is(err, errRangeIgnored), errors.Is(err, errStaleResume):
		return true
	case errors.As(err, &ne) && ne.Timeout():
		return true
	}
	var ue *UnreachableError
	return errors.As(err, &ue)
}

// Internal retry causes.
var (
	errTruncated    = errors.New("the connection closed before the whole file arrived")
	errRangeIgnored = errors.New("the server restarted the file instead of resuming it")
	errStaleResume  = errors.New("the resumed download did not verify; starting over")
)

// classifyTransportErr turns a dial failure into UnreachableError so the report says "offline" rather than a
// raw socket message; other errors pass through.
func classifyTransportErr(u *url.URL, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return &UnreachableError{Host: u.Host, Err: op.Err}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &UnreachableError{Host: u.Host, Err: dns}
	}
	return err
}

// localFault wraps a file-system error on the data directory, or returns nil when it is not one.
func localFault(path string, err error) error {
	if err == nil {
		return nil
	}
	switch {
	case isDiskFull(err):
		return &LocalError{Path: path, Kind: ErrDiskFull, Err: err}
	case isNotWritable(err):
		return &LocalError{Path: path, Kind: ErrNotWritable, Err: err}
	}
	return nil
}

// redactURL drops credentials a user may have embedded in a registry URL.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.User = nil
	u.RawQuery = ""
	return u.String()
}
