package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
)

// Bounds of the files `baton run` reads: a system prompt or a tools file is text a person wrote, far below these.
const (
	systemFileMax = 1 << 20
	toolsFileMax  = 4 << 20
)

// readFileLimited reads a file named by a flag, refusing one larger than max ("--system /dev/zero" stops at max+1
// bytes) and giving up when ctx ends: a FIFO nobody writes to, or a slow device, leaves the read blocked, so it runs
// aside and a Ctrl-C or SIGTERM still ends the command (the process exits; the blocked read goes with it).
func readFileLimited(ctx context.Context, flagName, path string, max int64) ([]byte, error) {
	type read struct {
		b   []byte
		err error
	}
	done := make(chan read, 1)
	go func() {
		b, err := readUpTo(ctx, path, max+1)
		done <- read{b, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, fmt.Errorf("%s: %w", flagName, r.err)
		}
		if int64(len(r.b)) > max {
			return nil, fmt.Errorf("%s is larger than %s (%s): give a smaller file", flagName, byteSize(max), path)
		}
		return r.b, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: reading %s was interrupted: %w", flagName, path, ctx.Err())
	}
}

// readUpTo reads at most limit bytes of path, in chunks, stopping between them once ctx ends.
func readUpTo(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	r := io.LimitReader(f, limit)
	chunk := make([]byte, 64<<10)
	for ctx.Err() == nil {
		n, err := r.Read(chunk)
		buf.Write(chunk[:n])
		if err == io.EOF {
			return buf.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, ctx.Err()
}
