package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/cli"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// writeTranscript puts a one-prompt session in Claude Code's projects folder.
func writeTranscript(t *testing.T, id, prompt string) {
	t.Helper()
	home := os.Getenv("HOME")
	line := `{"type":"user","uuid":"7d3c1e2a-0000-4000-8000-000000000001","parentUuid":null,"sessionId":"` + id + `","cwd":"` +
		home + `","message":{"role":"user","content":"` + prompt + `"},"timestamp":"2026-12-02T01:57:59.163Z",` +
		`"isSidechain":false,"userType":"external","version":"2.1.0"}` + "\n"
	path := filepath.Join(home, ".claude", "projects", "-p", id+".jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(line), 0o600))
}

// `baton history` on a terminal shows the index's progress on stderr while it waits for the session to be
// indexed (the real index in a temp data dir, mapped by the real sidecar): one line drawn in place and cleared
// before the history is printed. Stdout never carries it, and stderr that is not a terminal gets nothing.
func TestHistoryShowsTheIndexProgressOnATerminal(t *testing.T) {
	useTempHome(t)
	t.Setenv("BATON_SIDECAR", testenv.SidecarPath(t))
	ids := []string{"0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "1c0a4b5f-6d2e-4f3a-8b8c-2d3e4f5a6b7c", "2d1b5c6a-7e3f-4a4b-9c9d-3e4f5a6b7c8d"}
	for _, id := range ids {
		writeTranscript(t, id, "Tidy the build script")
	}
	h, err := openCommandHost(context.Background(), zerolog.Nop())
	require.NoError(t, err)
	t.Cleanup(h.Close)
	require.NotNil(t, h.index)

	run := func(id string, tty bool, args ...string) (stdout, stderr string) {
		var out, errs bytes.Buffer
		env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs, Sessions: h.Sessions(),
			StderrIsTTY: tty, Index: indexWatch{h.State()}}
		require.Equal(t, cli.ExitOK, cli.RunHistory(context.Background(), append(args, id), env), errs.String())
		return out.String(), errs.String()
	}

	// Whether a wait is long enough to draw the line is the machine's (cli's TestTheIndexLine… draws it for
	// sure); what is drawn is cleared, and stdout never carries it.
	stdout, stderr := run(ids[0], true)
	if stderr != "" {
		require.Regexp(t, `^(\r\x1b\[K(Indexing transcripts: \d+ % \(\d+ kB of \d+ kB\)|Indexing transcripts…))+\r\x1b\[K$`, stderr)
	}
	require.NotContains(t, stdout, "Indexing")
	require.Contains(t, stdout, "Tidy the build script")

	stdout, stderr = run(ids[1], true, "--json")
	require.NotContains(t, stdout, "Indexing", "JSON on stdout stays JSON")
	require.True(t, stderr == "" || strings.HasSuffix(stderr, "\r\x1b[K"), "a line drawn is cleared: %q", stderr)

	_, stderr = run(ids[2], false)
	require.Empty(t, stderr, "no progress line where stderr is not a terminal")
}
