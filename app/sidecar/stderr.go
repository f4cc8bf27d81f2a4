package sidecar

import (
	"strings"
	"sync"
)

// stderrTail keeps only the last few KiB of the sidecar's stderr. Stderr may hold prompts, paths or tokens echoed
// by the CLI, so it is never logged or shown; it only feeds a bounded classification of why the sidecar died.
type stderrTail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func newStderrTail(max int) *stderrTail { return &stderrTail{max: max} }

func (s *stderrTail) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, p...)
	if over := len(s.buf) - s.max; over > 0 {
		s.buf = append(s.buf[:0], s.buf[over:]...)
	}
	return len(p), nil
}

// classify reduces the tail to a fixed label that is safe to show and log.
func (s *stderrTail) classify() string {
	s.mu.Lock()
	text := strings.ToLower(string(s.buf))
	s.mu.Unlock()
	switch {
	case text == "":
		return "no diagnostics"
	case strings.Contains(text, "out of memory") || strings.Contains(text, "heap limit"):
		return "out of memory"
	case strings.Contains(text, "cannot find module") || strings.Contains(text, "module not found"):
		return "a sidecar file is missing; reinstall Baton"
	case strings.Contains(text, "permission denied") || strings.Contains(text, "eacces"):
		return "permission denied"
	default:
		return "unexpected error"
	}
}
