package testenv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"testing"
	"time"
)

// DefaultModel is the model tests pass to the CLI; the fake API echoes whatever it gets.
const DefaultModel = "claude-sonnet-4-5"

// DefaultTimeout bounds one CLI run when PrintRun.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// PrintRun describes one `claude -p --output-format stream-json --verbose` run.
type PrintRun struct {
	BaseURL string        // the fake API (ANTHROPIC_BASE_URL)
	Home    string        // temp HOME (see NewHome)
	Dir     string        // the CLI's working directory (see NewProject)
	Prompt  string        // the prompt, passed as the last argument
	Model   string        // "" = DefaultModel
	Args    []string      // more flags, e.g. "--permission-mode", "acceptEdits" or "--resume", id
	Env     []string      // KEY=VALUE added after CLIEnv (later entries win)
	Timeout time.Duration // 0 = DefaultTimeout; on expiry the CLI is stopped (SIGTERM, then SIGKILL after 5 s)
}

// PrintResult is what one run printed. The CLI's exit status is in ExitCode (-1 if it was killed).
type PrintResult struct {
	Lines    []StreamLine
	Stdout   []byte
	Stderr   []byte
	ExitCode int
}

// StreamLine is one line of stream-json output, decoded as far as tests need; Raw is the whole line.
type StreamLine struct {
	Type      string          `json:"type"`
	Subtype   string          `json:"subtype"`
	SessionID string          `json:"session_id"`
	IsError   bool            `json:"is_error"`
	Result    string          `json:"result"`
	Message   *StreamMessage  `json:"message"`
	Raw       json.RawMessage `json:"-"`
}

// StreamMessage is the API message inside assistant and user lines.
type StreamMessage struct {
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content []StreamContent `json:"-"`
	// RawContent is content as sent: an array of blocks, or a string for plain user text.
	RawContent json.RawMessage `json:"content"`
}

// StreamContent is one content block of a StreamMessage.
type StreamContent struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"` // tool_result content: a string or blocks
}

// RunPrint runs the CLI once in print mode and returns its decoded output. It fails the test if the
// CLI cannot start, runs out of time (it is stopped with the commands it started), or prints a line that
// is not JSON. A non-zero exit is not a failure here: error results exit non-zero.
func RunPrint(t testing.TB, run PrintRun) *PrintResult {
	t.Helper()
	claude := RequireClaude(t)
	timeout := run.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	model := run.Model
	if model == "" {
		model = DefaultModel
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()

	args := append([]string{"-p", "--output-format", "stream-json", "--verbose", "--model", model}, run.Args...)
	args = append(args, "--", run.Prompt) // "--": a prompt starting with "-" is still the prompt
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = run.Dir
	cmd.Env = append(CLIEnv(run.BaseURL, run.Home), run.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second

	err := cmd.Run()
	res := &PrintResult{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: -1}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if ctx.Err() != nil {
		t.Fatalf("claude -p did not finish within %s and was killed\nstdout:\n%s\nstderr:\n%s", timeout, tail(res.Stdout), tail(res.Stderr))
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("run claude -p: %v\nstderr:\n%s", err, tail(res.Stderr))
	}
	res.Lines = decodeLines(t, res.Stdout)
	return res
}

func decodeLines(t testing.TB, out []byte) []StreamLine {
	t.Helper()
	var lines []StreamLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var l StreamLine
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Errorf("claude printed a line that is not JSON (%v): %.300s", err, raw)
			continue
		}
		if l.Message != nil && len(l.Message.RawContent) > 0 && l.Message.RawContent[0] == '[' {
			if err := json.Unmarshal(l.Message.RawContent, &l.Message.Content); err != nil {
				t.Errorf("decode message content: %v: %.300s", err, raw)
			}
		}
		l.Raw = append(json.RawMessage(nil), raw...)
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Errorf("read claude output: %v", err)
	}
	return lines
}

// Result returns the last result line, or nil if the run printed none.
func (r *PrintResult) Result() *StreamLine {
	for i := len(r.Lines) - 1; i >= 0; i-- {
		if r.Lines[i].Type == "result" {
			return &r.Lines[i]
		}
	}
	return nil
}

// SessionID returns the session id the run reported (from its first line that carries one).
func (r *PrintResult) SessionID() string {
	for _, l := range r.Lines {
		if l.SessionID != "" {
			return l.SessionID
		}
	}
	return ""
}

// Blocks returns every content block of the given type from lines of the given type
// ("assistant" or "user"), in order.
func (r *PrintResult) Blocks(lineType, blockType string) []StreamContent {
	var out []StreamContent
	for _, l := range r.Lines {
		if l.Type != lineType || l.Message == nil {
			continue
		}
		for _, c := range l.Message.Content {
			if c.Type == blockType {
				out = append(out, c)
			}
		}
	}
	return out
}

// ResultText flattens a tool_result's content (a string or text blocks) to text.
func (c StreamContent) ResultText() string { return flatten(c.Content) }

func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks) // anything else flattens to ""
	var buf bytes.Buffer
	for i, b := range blocks {
		if i > 0 {
			buf.WriteByte('\n')
		}
		buf.WriteString(b.Text)
	}
	return buf.String()
}

// tail keeps failure messages readable: the last 4 KiB of a stream.
func tail(b []byte) []byte {
	const n = 4 << 10
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
