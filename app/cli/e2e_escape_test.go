package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireNoControls fails on any escape or control character other than a newline or a tab.
func requireNoControls(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		control := r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
		require.False(t, control, "%s printed control character %U raw:\n%q", what, r, out)
	}
}

// Escape injection (issue 26): a real command's output with a color and a window title, and a prompt (so a session
// title) carrying an OSC sequence, reach the terminal of baton exec, history and sessions as text only — and
// history shows the person's prompt.
func TestTerminalCommandsPrintNoEscapes(t *testing.T) {
	h := newCLIHarness(t)
	const id = "24242424-0000-4000-8000-0000000000e5"
	// Octal \133 and \135 are [ and ]: the fake API's [bash …] marker balances brackets.
	prompt := "\x1b]0;owned\x07Show colors [bash printf '\\033\\13331mred\\033\\1330m \\033\\1350;title\\007done']"
	r := h.run("exec", "--approve", "all", "--permission-mode", "default", "--session-id", id, prompt)
	require.Equal(t, 0, r.code, r.stderr)
	requireNoControls(t, "exec", r.stdout+r.stderr)
	require.Contains(t, r.stdout, "\n    red done\n", "the command's output, without its escapes")

	r = h.run("history", id)
	require.Equal(t, 0, r.code, r.stderr)
	requireNoControls(t, "history", r.stdout+r.stderr)
	require.Contains(t, r.stdout, "\n> Show colors [bash printf '\\033\\13331mred", "history shows the prompt")
	require.Contains(t, r.stdout, "\n    red done\n")

	r = h.run("sessions")
	require.Equal(t, 0, r.code, r.stderr)
	requireNoControls(t, "sessions", r.stdout+r.stderr)
	require.True(t, strings.Contains(r.stdout, id) && strings.Contains(r.stdout, "Show colors"), r.stdout)
}

// baton run prints a model's reply: the reply that quotes a tool's colored output reaches the terminal as text only.
func TestRunPrintsNoEscapes(t *testing.T) {
	h := newCLIHarness(t)
	r := h.run("run", "--tool", `paint=printf '\033[31mred\033[0m \033]0;title\007done'`, `[tool mcp__baton__paint {}]`)
	require.Equal(t, 0, r.code, "stderr: %s", r.stderr)
	requireNoControls(t, "run", r.stdout+r.stderr)
	require.Contains(t, r.stdout, "[ok] red done")
}
