package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/cli"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/protocol"
	"github.com/stretchr/testify/require"
)

// builtSidecar is the compiled sidecar scripts/build made (BATON_SIDECAR overrides it, as in the other tests).
func builtSidecar(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("BATON_SIDECAR"); p != "" {
		return p
	}
	return repoSidecar(t)
}

// repoSidecar is the compiled sidecar inside the repository's build tree.
func repoSidecar(t *testing.T) string {
	t.Helper()
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	p := filepath.Join(root, "build", "bin", "baton-sidecar")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the compiled sidecar is missing (%s): run scripts/build first", p)
	}
	return p
}

func runSmoke(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.RunSmoke(context.Background(), args, &out, &errb, builtSidecar(t))
	return code, out.String(), errb.String()
}

// writeScript writes an executable shell script: a deliberately wrong "sidecar" for the failure paths.
func writeScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sidecar.sh")
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755))
	return p
}

// answerEveryRequest is a sidecar that replies ok to every request with the given version and payload; a %s in
// the payload becomes the request's session.
func answerEveryRequest(t *testing.T, version int, payload string) string {
	t.Helper()
	return writeScript(t, fmt.Sprintf(`while IFS= read -r line; do
  id=$(printf '%%s' "$line" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
  session=$(printf '%%s' "$line" | sed -n 's/.*"session":"\([^"]*\)".*/\1/p')
  printf '{"v":%d,"id":"%%s","type":"ok","payload":%s}\n' "$id" "$session"
done
`, version, payload))
}

func TestSmokeRunsTheSidecarThroughStartExecClose(t *testing.T) {
	code, stdout, stderr := runSmoke(t)
	require.Equal(t, cli.ExitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Empty(t, stderr)
	require.Contains(t, stdout, fmt.Sprintf("(protocol v%d, test driver)", protocol.ProtocolVersion))
	for _, step := range []string{"launch", "start", "exec", "close", "exit"} {
		require.Contains(t, stdout, "  ok   "+step, "step %s not reported", step)
	}
	require.Contains(t, stdout, `"Echo: smoke `)
	require.Contains(t, stdout, "smoke passed in ")
}

func TestSmokeNamesTheStepThatFailed(t *testing.T) {
	trueBin, err := exec.LookPath("true")
	require.NoError(t, err)
	missing := filepath.Join(t.TempDir(), "no-such-sidecar")
	cases := []struct {
		name    string
		sidecar string
		step    string
		says    string
	}{
		{"missing executable", missing, "launch", missing},
		{"exits at once", trueBin, "start", "the sidecar process ended"},
		{"another protocol version", answerEveryRequest(t, protocol.ProtocolVersion+1, `{"session":"%s"}`), "start",
			fmt.Sprintf("this host speaks %d", protocol.ProtocolVersion)},
		{"test driver not engaged", answerEveryRequest(t, protocol.ProtocolVersion,
			`{"session":"%s","executable":"/usr/local/bin/claude"}`), "start", "did not switch to its test driver"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runSmoke(t, "--sidecar", tc.sidecar, "--timeout", "30s")
			require.Equal(t, cli.ExitFailure, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			require.Contains(t, stdout, "  FAIL "+tc.step)
			require.Contains(t, stderr, "baton smoke: failed at "+tc.step+": ")
			require.Contains(t, stderr, tc.says)
			require.NotContains(t, stdout, "smoke passed")
		})
	}
}

func TestSmokeUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"--timeout", "0s"}, {"--sidecar", ""}, {"--no-such-flag"}} {
		code, _, stderr := runSmoke(t, args...)
		require.Equal(t, cli.ExitUsage, code, "args %q", args)
		require.Contains(t, stderr, "usage: baton smoke", "args %q", args)
	}
}

// Support asks people to run `baton smoke --sidecar ./baton-sidecar` from the install folder.
func TestSmokeAcceptsARelativeSidecarPath(t *testing.T) {
	sidecar := builtSidecar(t)
	t.Chdir(filepath.Dir(sidecar))
	code, stdout, stderr := runSmoke(t, "--sidecar", "./"+filepath.Base(sidecar))
	require.Equal(t, cli.ExitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	require.Contains(t, stdout, "baton smoke: "+sidecar+" ")
}
