package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/runner"
)

// TestMain points this test process at the scripted Messages API, a temp home and the built sidecar, so the
// examples run the package-level Run and CheckAuth exactly as a program would (the other tests pass their own
// environment explicitly). A missing claude or sidecar fails the tests: they must not pass by not running.
func TestMain(m *testing.M) {
	os.Exit(runWithScriptedAPI(m))
}

func runWithScriptedAPI(m *testing.M) int {
	claude, err := testenv.ClaudePath()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	sidecar := os.Getenv("BATON_SIDECAR")
	if sidecar == "" {
		root, err := testenv.RepoRoot()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		sidecar = filepath.Join(root, "build", "bin", "baton-sidecar")
	}
	if _, err := os.Stat(sidecar); err != nil {
		fmt.Fprintf(os.Stderr, "the compiled sidecar is missing (%s): run scripts/build first\n", sidecar)
		return 1
	}
	api, err := fakeapi.Start(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer api.Close()
	home, err := os.MkdirTemp("", "baton-runner-home-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(home)
	env := append(testenv.CLIEnv(api.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude, "BATON_SIDECAR="+sidecar,
		"BATON_DATA_DIR="+filepath.Join(home, "baton"))
	os.Clearenv()
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		_ = os.Setenv(name, value)
	}
	return m.Run()
}

// A program gives Claude one tool and nothing else. (Against the scripted API the tests use, the marker in the
// prompt makes the model call the tool; a real model decides for itself.)
func Example() {
	dir, _ := os.MkdirTemp("", "glossary-")
	defer os.RemoveAll(dir)
	lookup := runner.Tool{
		Name:        "lookup",
		Description: "Look a word up in the glossary",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}`),
		Handler: func(ctx context.Context, input json.RawMessage) (runner.Output, error) {
			return runner.Output{Text: "a stick passed on in a relay", Value: 1}, nil
		},
	}
	res, err := runner.Run(context.Background(), runner.Spec{
		Cwd:      dir,
		Prompt:   `What is a baton? [tool mcp__baton__lookup {"word":"baton"}]`,
		MaxTurns: 5,
		Tools:    []runner.Tool{lookup},
	})
	if err != nil {
		fmt.Println("run failed:", err)
		return
	}
	fmt.Println(res.StopReason, len(res.ToolCalls), res.ToolFailures)
	fmt.Println(res.Text)
	// Output:
	// natural 1 0
	// Tool results: [ok] a stick passed on in a relay
}

// Before the first run: is the local Claude Code sign-in usable? (The tests sign in with an API key.)
func ExampleCheckAuth() {
	if err := runner.CheckAuth(context.Background()); err != nil {
		fmt.Println(err) // e.g. "Signed out: … To sign in, run: claude auth login"
		return
	}
	fmt.Println("signed in")
	// Output: signed in
}
