package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// `baton acp --login` is what an ACP client runs in its terminal for the "claude-login" auth method: Claude
// Code's own login, run as it is. The claude here is a stand-in that records its arguments.
func TestACPLoginRunsClaudesOwnLogin(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "args")
	claude := filepath.Join(dir, "claude")
	require.NoError(t, os.WriteFile(claude, []byte("#!/bin/sh\necho \"$@\" > "+record+"\n"), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, batonBin, "acp", "--login")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "BATON_DATA_DIR=" + filepath.Join(dir, "data"),
		"CLAUDE_CODE_EXECUTABLE=" + claude}
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := os.ReadFile(record)
	require.NoError(t, err)
	require.Equal(t, "auth login\n", string(got))
}

func TestACPRefusesArguments(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, batonBin, "acp", "extra")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "BATON_DATA_DIR=" + filepath.Join(dir, "data")}
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "%s", out)
	require.Equal(t, 2, exitErr.ExitCode())
	require.Contains(t, string(out), "baton acp [--login]")
}
