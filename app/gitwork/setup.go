package gitwork

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
)

// runSetup runs the repository's setup command in dir with its output (stdout and stderr, interleaved as
// written) handed to output as it comes.
func runSetup(ctx context.Context, dir, command string, output func([]byte)) error {
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.CommandContext(ctx, "cmd", "/C", command)
	} else {
		cmd = exec.CommandContext(ctx, "sh", "-c", command)
	}
	cmd.Dir = dir
	cmd.Env = os.Environ()
	w := &callbackWriter{fn: output}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("the setup command %q failed (%w); fix it (git config baton.setup) and start again", command, err)
	}
	return nil
}

// callbackWriter hands each write to fn (a copy: the caller's buffer is reused), one at a time.
type callbackWriter struct {
	mu sync.Mutex
	fn func([]byte)
}

func (w *callbackWriter) Write(p []byte) (int, error) {
	if w.fn != nil {
		w.mu.Lock()
		w.fn(append([]byte(nil), p...))
		w.mu.Unlock()
	}
	return len(p), nil
}
