package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/baton-console/baton/app/runner"
)

// commandTool is one tool of `baton run`: a shell command that gets the tool's JSON input on stdin and whose
// stdout is what the model reads.
type commandTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Command     string          `json:"command"`
}

// toolsFile is the --tools-file format.
type toolsFile struct {
	Tools []commandTool `json:"tools"`
}

// anyObject is the schema of a --tool NAME=COMMAND tool: any JSON object.
const anyObject = `{"type":"object"}`

// parseToolFlag reads NAME=COMMAND.
func parseToolFlag(v string) (commandTool, error) {
	name, command, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(command) == "" {
		return commandTool{}, fmt.Errorf("--tool %q: expected NAME=COMMAND", v)
	}
	return commandTool{Name: strings.TrimSpace(name), Command: command,
		Description: fmt.Sprintf("Runs the command `%s` with this tool's input (a JSON object) on stdin; returns its output.", command),
		InputSchema: json.RawMessage(anyObject)}, nil
}

// readToolsFile reads a tools file: {"tools": [{"name", "description", "inputSchema", "command"}, …]}.
func readToolsFile(ctx context.Context, path string) ([]commandTool, error) {
	b, err := readFileLimited(ctx, "--tools-file", path, toolsFileMax)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f toolsFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf(`tools file %s: %w (expected {"tools": [{"name", "description", "inputSchema", "command"}]})`, path, err)
	}
	for i, t := range f.Tools {
		if t.Command == "" {
			return nil, fmt.Errorf("tools file %s: tool %d (%q) has no command", path, i+1, t.Name)
		}
		if len(t.InputSchema) == 0 {
			f.Tools[i].InputSchema = json.RawMessage(anyObject)
		}
	}
	return f.Tools, nil
}

// runnerTool turns a command tool into a runner tool whose handler runs the command in dir.
func (t commandTool) runnerTool(dir string) runner.Tool {
	return runner.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema,
		Handler: func(ctx context.Context, input json.RawMessage) (runner.Output, error) {
			return runCommand(ctx, t.Command, dir, input)
		}}
}

// commandOutputMax bounds what the model reads of a command's stdout: its first three quarters and its last quarter
// are kept, the middle is cut (and the cut said). stderr only explains a failure, so less of it is kept.
const (
	commandOutputMax = 1 << 20
	commandErrorMax  = 64 << 10
)

// commandDrain is how long a command's output is still read after the command exited. The call waits for the
// command, not for whoever holds its pipes last: a background child it started (`server &`) keeps running, but
// what it prints after this is not part of the answer.
const commandDrain = time.Second

// runCommand runs command with input on stdin. A non-zero exit is a failed call carrying what it printed.
func runCommand(ctx context.Context, command, dir string, input json.RawMessage) (runner.Output, error) {
	shell, flag := "sh", "-c"
	if runtime.GOOS == "windows" {
		shell, flag = "cmd", "/C"
	}
	cmd := exec.CommandContext(ctx, shell, flag, command)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(input)
	stdout := newOutputCap(commandOutputMax*3/4, commandOutputMax/4)
	stderr := newOutputCap(commandErrorMax/2, commandErrorMax/2)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = commandDrain
	err := cmd.Run()
	if errors.Is(err, exec.ErrWaitDelay) {
		err = nil // it exited cleanly; a child of its still held the pipes
	}
	out := stdout.String()
	if err != nil {
		var exitErr *exec.ExitError
		what := strings.TrimSpace(stderr.String())
		if what == "" {
			what = strings.TrimSpace(out)
		}
		if errors.As(err, &exitErr) {
			if what == "" {
				return runner.Output{}, fmt.Errorf("the command exited with status %d and printed nothing", exitErr.ExitCode())
			}
			return runner.Output{}, fmt.Errorf("the command exited with status %d: %s", exitErr.ExitCode(), oneLine(what, 2000))
		}
		return runner.Output{}, fmt.Errorf("the command could not run: %w", err)
	}
	return runner.Output{Text: out}, nil
}
