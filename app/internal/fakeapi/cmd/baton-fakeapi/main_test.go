package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is a log sink safe for the handler goroutines that write to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func TestRunServesUntilStdinCloses(t *testing.T) {
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(context.Background(), "127.0.0.1:0", stdinR, stdoutW, zerolog.New(logs)) }()

	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	require.NoError(t, err)
	base := strings.TrimSpace(line)
	assert.Regexp(t, `^http://127\.0\.0\.1:\d+$`, base)

	secret := "a prompt that must not be logged"
	resp, err := http.Post(base+"/v1/messages", "application/json",
		strings.NewReader(`{"model":"m","stream":false,"messages":[{"role":"user","content":"`+secret+`"}]}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	require.NoError(t, stdinW.Close())
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after stdin closed")
	}
	out := logs.String()
	assert.Equal(t, 1, strings.Count(out, `"message":"request"`), out)
	assert.Contains(t, out, `"target":"/v1/messages"`)
	assert.NotContains(t, out, secret, "no bodies in the log")
	_, err = http.Get(base + "/")
	assert.Error(t, err, "the server is closed")
}

func TestRunStopsWhenContextEnds(t *testing.T) {
	stdinR, stdinW := io.Pipe()
	defer stdinW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, "127.0.0.1:0", stdinR, io.Discard, zerolog.Nop()) }()
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
}

func TestRunRefusesNonLoopback(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), "0.0.0.0:0", strings.NewReader(""), &out, zerolog.Nop())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a loopback address")
	assert.Empty(t, out.String(), "no URL printed")
}

// TestBinaryExitsOnStdinEOFAndSIGTERM runs the built command as a parent would.
func TestBinaryExitsOnStdinEOFAndSIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGTERM is not deliverable on Windows")
	}
	bin := filepath.Join(t.TempDir(), "baton-fakeapi")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	start := func() (*exec.Cmd, io.WriteCloser, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		t.Cleanup(cancel)
		cmd := exec.CommandContext(ctx, bin)
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		line, err := bufio.NewReader(stdout).ReadString('\n')
		require.NoError(t, err)
		return cmd, stdin, strings.TrimSpace(line)
	}

	cmd, stdin, base := start()
	resp, err := http.Get(base + "/v1/models")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	require.NoError(t, stdin.Close())
	assert.NoError(t, cmd.Wait(), "exits cleanly when stdin closes")

	cmd, stdin, _ = start()
	defer stdin.Close()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	assert.NoError(t, cmd.Wait(), "exits cleanly on SIGTERM")
}
