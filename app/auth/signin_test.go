package auth

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSignInCommand(t *testing.T) {
	assert.Equal(t, []string{"/opt/baton/claude", "auth", "login"}, SignInCommand("/opt/baton/claude"))
	if runtime.GOOS == "windows" {
		t.Skip("POSIX quoting below")
	}
	assert.Equal(t, "/opt/baton/claude auth login", SignInCommandLine("/opt/baton/claude", nil))
	assert.Equal(t, `'/Users/a b/claude' auth login`, SignInCommandLine("/Users/a b/claude", nil))
	assert.Equal(t, `CLAUDE_CONFIG_DIR='/tmp/it'\''s' /c auth login`,
		SignInCommandLine("/c", []string{"CLAUDE_CONFIG_DIR=/tmp/it's"}))
	assert.Equal(t, "/c auth login", SignInCommandLine("/c", []string{envAPIKey + "=" + fakeKey}), "no other variable is copied")
}

// fakeTerminal is a stand-in for xterm (no display exists here): it records its arguments and runs the
// program after -e with no input, as a terminal would until the user presses Enter.
func fakeTerminal(t *testing.T, dir, name string) {
	t.Helper()
	p := filepath.Join(dir, name)
	body := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + dir + "/terminal-args'\nshift\n\"$@\" < /dev/null > '" + dir + "/terminal-output' 2>&1\n"
	require.NoError(t, os.WriteFile(p, []byte(body), 0o755))
}

// standInPath is a PATH holding only dir, the test's stand-ins, plus the one system tool the sign-in script
// itself runs (rm), linked in. Never the system's bin directories: a machine with a real terminal installed
// (x-terminal-emulator, gnome-terminal...) must not have it picked over the stand-in, nor open a window.
func standInPath(t *testing.T, dir string) string {
	t.Helper()
	rm, err := exec.LookPath("rm")
	require.NoError(t, err)
	require.NoError(t, os.Symlink(rm, filepath.Join(dir, "rm")))
	return "PATH=" + dir
}

func TestOpenSignInTerminalRunsClaudesLoginInATerminal(t *testing.T) {
	scriptsInTempDir(t)
	if runtime.GOOS != "linux" {
		t.Skip("the Linux terminal route")
	}
	bin := t.TempDir()
	fakeTerminal(t, bin, "xterm")
	claude := writeScript(t, "claude", "printf '%s ' \"$@\" > '"+bin+"/claude-args'\necho \"$CLAUDE_CONFIG_DIR\" >> '"+bin+"/claude-args'\n")
	cfg := filepath.Join(t.TempDir(), "cfg")
	env := []string{standInPath(t, bin), "DISPLAY=:99", envConfigDir + "=" + cfg, envAPIKey + "=" + fakeKey}

	require.NoError(t, OpenSignInTerminal(context.Background(), claude, env))
	require.Eventually(t, func() bool {
		out, err := os.ReadFile(filepath.Join(bin, "terminal-output"))
		return err == nil && strings.Contains(string(out), "Press Enter")
	}, 10*time.Second, 10*time.Millisecond, "the terminal ran the sign-in script to its end")

	args, err := os.ReadFile(filepath.Join(bin, "terminal-args"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(args)), "\n")
	require.Len(t, lines, 2)
	assert.Equal(t, "-e", lines[0])
	claudeArgs, err := os.ReadFile(filepath.Join(bin, "claude-args"))
	require.NoError(t, err)
	assert.Equal(t, "auth login "+cfg+"\n", string(claudeArgs), "claude's own login, in Baton's config dir")
	_, err = os.Stat(lines[1])
	assert.ErrorIs(t, err, os.ErrNotExist, "the sign-in script removes itself")
	out, _ := os.ReadFile(filepath.Join(bin, "terminal-output"))
	assert.Contains(t, string(out), "Done.")
}

func TestOpenSignInTerminalPrefersTheListedOrder(t *testing.T) {
	scriptsInTempDir(t)
	if runtime.GOOS != "linux" {
		t.Skip("the Linux terminal route")
	}
	bin := t.TempDir()
	fakeTerminal(t, bin, "gnome-terminal")
	fakeTerminal(t, bin, "xterm")
	claude := writeScript(t, "claude", "exit 0\n")
	require.NoError(t, OpenSignInTerminal(context.Background(), claude, []string{standInPath(t, bin), "WAYLAND_DISPLAY=wayland-0"}))
	require.Eventually(t, func() bool {
		args, err := os.ReadFile(filepath.Join(bin, "terminal-args"))
		return err == nil && strings.HasPrefix(string(args), "--\n")
	}, 10*time.Second, 10*time.Millisecond, "gnome-terminal comes before xterm and takes the program after --")
}

func TestOpenSignInTerminalWithoutATerminalGivesTheCommand(t *testing.T) {
	scriptsInTempDir(t)
	if runtime.GOOS != "linux" {
		t.Skip("the Linux terminal route")
	}
	claude := "/opt/baton/claude"
	var nt *NoTerminalError

	err := OpenSignInTerminal(context.Background(), claude, []string{"PATH=" + t.TempDir(), "DISPLAY=:99"})
	require.True(t, errors.As(err, &nt), "%v", err)
	assert.Equal(t, "/opt/baton/claude auth login", nt.Command)
	assert.Contains(t, nt.Reason, "no terminal program was found")
	assert.Contains(t, err.Error(), "run this in a terminal: /opt/baton/claude auth login")

	bin := t.TempDir()
	fakeTerminal(t, bin, "xterm")
	err = OpenSignInTerminal(context.Background(), claude, []string{"PATH=" + bin, envAPIKey + "=" + fakeKey})
	require.True(t, errors.As(err, &nt), "%v", err)
	assert.Contains(t, nt.Reason, "no graphical display")
	assert.NotContains(t, err.Error(), fakeKey)

	assert.Error(t, OpenSignInTerminal(context.Background(), "", nil))
}

func TestSignInScriptIsValidShell(t *testing.T) {
	scriptsInTempDir(t)
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell")
	}
	script, err := writeSignInScript("/odd path/it's/claude", []string{envConfigDir + "=/tmp/a b"})
	require.NoError(t, err)
	defer os.Remove(script)
	out, err := exec.Command("sh", "-n", script).CombinedOutput()
	require.NoError(t, err, "%s", out)
	body, err := os.ReadFile(script)
	require.NoError(t, err)
	assert.Contains(t, string(body), `'/odd path/it'\''s/claude' auth login`)
	assert.Contains(t, string(body), `CLAUDE_CONFIG_DIR='/tmp/a b'; export CLAUDE_CONFIG_DIR`)
}

// scriptsInTempDir keeps the sign-in scripts a test writes in its own folder: a stand-in terminal that never runs
// one leaves it behind (the script removes itself only when it runs).
func scriptsInTempDir(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
}
