package protocol

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// ErrLineTooLong reports a line over MaxLineBytes; the line was dropped and reading can go on.
var ErrLineTooLong = fmt.Errorf("sidecar sent a line larger than %d MiB; it was dropped", MaxLineBytes>>20)

// LineReader reads newline-terminated lines without ever buffering more than its bound: a longer line is
// skipped to its newline and reported as ErrLineTooLong, so one bad line cannot exhaust memory or end the stream.
type LineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// NewLineReader reads lines of at most max bytes (MaxLineBytes when max <= 0).
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = MaxLineBytes
	}
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its newline. It returns ErrLineTooLong for an oversized line (call Next
// again for the following one) and io.EOF at the end; a final line without a newline is still returned.
func (l *LineReader) Next() ([]byte, error) {
	l.buf = l.buf[:0]
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max+1 { // +1: the newline itself does not count
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, ErrLineTooLong
			}
			return trimNewline(l.buf), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if tooLong {
				return nil, ErrLineTooLong
			}
			if len(l.buf) > 0 {
				return trimNewline(l.buf), nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}
