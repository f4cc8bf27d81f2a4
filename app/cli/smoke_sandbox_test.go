package cli_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/stretchr/testify/require"
)

// The packaging smoke runs bundles inside a bubblewrap sandbox (scripts/smoke-sandbox) that hides the
// repository and Node.js. These tests prove the sandbox is real: bundles that work on this machine only because
// node or the repository is at hand pass outside it and fail inside it.

func requireSandbox(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("bubblewrap is Linux-only; the sandboxed smoke runs on the Linux CI")
	}
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Fatal("bubblewrap (bwrap) is not installed, so the sandboxed smoke cannot be proven; scripts/setup installs it")
	}
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	return root
}

type scriptResult struct {
	code           int
	stdout, stderr string
}

func runProgram(t *testing.T, name string, args ...string) scriptResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		var exitErr *exec.ExitError
		require.ErrorAs(t, err, &exitErr, "%s %v: %v\n%s", name, args, err, errb.String())
		code = exitErr.ExitCode()
	}
	return scriptResult{code: code, stdout: out.String(), stderr: errb.String()}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	data, err := os.ReadFile(from)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(to, data, mode))
}

// bundleDir is a folder outside the repository holding a copy of baton and the given sidecar launcher.
func bundleDir(t *testing.T, launcher string) string {
	t.Helper()
	dir := testenv.TempDir(t)
	copyFile(t, batonBin, filepath.Join(dir, "baton"), 0o755)
	// The bundle's window build; the smoke only checks that it is there (the sandbox has no display).
	copyFile(t, batonBin, filepath.Join(dir, "baton-window"), 0o755)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "baton-sidecar"), []byte("#!/bin/sh\n"+launcher+"\n"), 0o755))
	return dir
}

// passesOnlyOutsideTheSandbox runs `baton smoke` on the bundle directly (it must pass: the bundle works here)
// and in the sandbox (it must fail, at the sidecar, for the reason given).
func passesOnlyOutsideTheSandbox(t *testing.T, root, dir, why string) {
	t.Helper()
	baton, sidecar := filepath.Join(dir, "baton"), filepath.Join(dir, "baton-sidecar")
	direct := runProgram(t, baton, "smoke", "--sidecar", sidecar)
	require.Equal(t, 0, direct.code, "the bundle must work outside the sandbox for this test to mean anything\n%s%s",
		direct.stdout, direct.stderr)

	boxed := runProgram(t, filepath.Join(root, "scripts", "smoke-sandbox"), "--bind", dir, "--", baton, "smoke", "--sidecar", sidecar)
	require.NotEqual(t, 0, boxed.code, "the sandbox let the bundle through:\n%s%s", boxed.stdout, boxed.stderr)
	require.Contains(t, boxed.stderr, "baton smoke: failed at start: ", "it must fail in the smoke, not in the sandbox's setup")
	require.Contains(t, boxed.stderr, why)
}

func TestSandboxedSmokePassesForTheBuiltSidecar(t *testing.T) {
	root := requireSandbox(t)
	res := runProgram(t, filepath.Join(root, "scripts", "smoke-sidecar"), builtSidecar(t), batonBin)
	require.Equal(t, 0, res.code, "%s%s", res.stdout, res.stderr)
	require.Contains(t, res.stdout, "smoke passed")
}

func TestSandboxHidesNode(t *testing.T) {
	root := requireSandbox(t)
	// The real sidecar, bundled for Node.js instead of compiled: it runs wherever node is installed.
	dir := bundleDir(t, `exec node "$(dirname "$0")/sidecar.mjs" "$@"`)
	build := runProgram(t, filepath.Join(root, "sidecar", "node_modules", ".bin", "bun"), "build", "--target=node",
		"--format=esm", filepath.Join(root, "sidecar", "src", "main.ts"), "--outfile", filepath.Join(dir, "sidecar.mjs"))
	require.Equal(t, 0, build.code, "bundling the sidecar for node: %s", build.stderr)
	// node is /dev/null in the sandbox: the launcher's exec is refused (126).
	passesOnlyOutsideTheSandbox(t, root, dir, "the sidecar process ended (exit status 126")
}

func TestSandboxHidesTheRepository(t *testing.T) {
	root := requireSandbox(t)
	// A launcher that runs the compiled sidecar from the build tree, as a bundle with a link back would.
	// The repository is an empty tmpfs in the sandbox: the launcher finds nothing to exec (127).
	passesOnlyOutsideTheSandbox(t, root, bundleDir(t, `exec "`+repoSidecar(t)+`" "$@"`),
		"the sidecar process ended (exit status 127")
}

func TestSandboxRefusesToExposeTheRepository(t *testing.T) {
	root := requireSandbox(t)
	res := runProgram(t, filepath.Join(root, "scripts", "smoke-sandbox"), "--bind", filepath.Join(root, "build"), "--", "true")
	require.NotEqual(t, 0, res.code)
	require.Contains(t, res.stderr, "which the sandbox hides")
}

// tarball packs dir as the single app folder of a release-like .tar.gz.
func tarball(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(testenv.TempDir(t), "baton-test-linux-amd64.tar.gz")
	res := runProgram(t, "tar", "-czf", out, "-C", filepath.Dir(dir), filepath.Base(dir))
	require.Equal(t, 0, res.code, res.stderr)
	return out
}

func appDir(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(testenv.TempDir(t), "baton-test-linux-amd64")
	require.NoError(t, os.Mkdir(dir, 0o755))
	copyFile(t, batonBin, filepath.Join(dir, "baton"), 0o755)
	// The bundle's window build; the smoke only checks that it is there (the sandbox has no display).
	copyFile(t, batonBin, filepath.Join(dir, "baton-window"), 0o755)
	copyFile(t, filepath.Join(root, "build", "linux", "baton.desktop"), filepath.Join(dir, "baton.desktop"), 0o644)
	copyFile(t, filepath.Join(root, "build", "linux", "baton.png"), filepath.Join(dir, "baton.png"), 0o644)
	copyFile(t, filepath.Join(root, "build", "linux", "install.sh"), filepath.Join(dir, "install.sh"), 0o755)
	return dir
}

func TestBundleSmokeRunsAnUnpackedTarball(t *testing.T) {
	root := requireSandbox(t)
	dir := appDir(t, root)
	// The sidecar is a link inside the bundle: the smoke replaces it by the file before running.
	require.NoError(t, os.Mkdir(filepath.Join(dir, "lib"), 0o755))
	copyFile(t, builtSidecar(t), filepath.Join(dir, "lib", "baton-sidecar"), 0o755)
	require.NoError(t, os.Symlink("lib/baton-sidecar", filepath.Join(dir, "baton-sidecar")))
	res := runProgram(t, filepath.Join(root, "scripts", "smoke-bundle"), tarball(t, dir))
	require.Equal(t, 0, res.code, "%s%s", res.stdout, res.stderr)
	require.Contains(t, res.stdout, "smoke passed")
	require.Regexp(t, regexp.MustCompile(`(?m)^claude-agent-sdk \S+\nclaude \S+ \(pinned\)$`), res.stdout)
}

func TestBundleSmokeRejectsALinkOutOfTheBundle(t *testing.T) {
	root := requireSandbox(t)
	dir := appDir(t, root)
	require.NoError(t, os.Symlink(repoSidecar(t), filepath.Join(dir, "baton-sidecar")))
	res := runProgram(t, filepath.Join(root, "scripts", "smoke-bundle"), tarball(t, dir))
	require.NotEqual(t, 0, res.code, "%s%s", res.stdout, res.stderr)
	require.Contains(t, res.stderr, "baton-sidecar links outside the bundle")
}

// The smoke scripts leave the wire to `baton smoke`, which uses protocol.ProtocolVersion; none of them may
// carry a protocol line (and with it a second copy of the version) of its own.
func TestSmokeScriptsCarryNoProtocolVersion(t *testing.T) {
	root, err := testenv.RepoRoot()
	require.NoError(t, err)
	scripts, err := filepath.Glob(filepath.Join(root, "scripts", "smoke-*"))
	require.NoError(t, err)
	scripts = append(scripts, filepath.Join(root, "scripts", "package"))
	require.GreaterOrEqual(t, len(scripts), 4)
	line := regexp.MustCompile(`"v"\s*:\s*\d|PROTOCOL_VERSION|ProtocolVersion`)
	for _, s := range scripts {
		src, err := os.ReadFile(s)
		require.NoError(t, err)
		if m := line.Find(src); m != nil {
			t.Errorf("%s carries the protocol version (%q); drive the sidecar through `baton smoke` instead", strings.TrimPrefix(s, root+"/"), m)
		}
	}
}
