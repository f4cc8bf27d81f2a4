// Package testenv helps Go tests run the real claude CLI offline: it finds the repository and the
// CLI binary, builds the CLI's environment for a fake Messages API, and makes temp homes and projects.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// FakeAPIKey is the API key tests give the CLI; the fake API accepts any key.
const FakeAPIKey = "sk-test-fake"

// RepoRoot walks up from the working directory to the directory holding go.mod.
func RepoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the repository root: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("find the repository root: %w", err)
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("find the repository root: no go.mod in %s or any parent", wd)
		}
	}
}

// platformPackage is the SDK's native package suffix for this machine, as npm installs it
// (@anthropic-ai/claude-agent-sdk-<platform>), plus the binary name.
func platformPackage() (pkgs []string, binary string) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	plat := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}[runtime.GOOS]
	binary = "claude"
	if runtime.GOOS == "windows" {
		binary = "claude.exe"
	}
	if arch == "" || plat == "" {
		return nil, binary
	}
	base := plat + "-" + arch
	if runtime.GOOS == "linux" {
		return []string{base, base + "-musl"}, binary // glibc first, as the SDK does
	}
	return []string{base}, binary
}

// ClaudePath returns $CLAUDE_CODE_EXECUTABLE when set, else the native CLI that npm installed under
// <repo>/sidecar/node_modules/@anthropic-ai/claude-agent-sdk-<platform>/.
func ClaudePath() (string, error) {
	if p := os.Getenv("CLAUDE_CODE_EXECUTABLE"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("CLAUDE_CODE_EXECUTABLE points at %s, which is unusable: %w", p, err)
		}
		return p, nil
	}
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	pkgs, binary := platformPackage()
	if len(pkgs) == 0 {
		return "", fmt.Errorf("the claude CLI has no native package for %s/%s; set CLAUDE_CODE_EXECUTABLE", runtime.GOOS, runtime.GOARCH)
	}
	var tried []string
	for _, pkg := range pkgs {
		p := filepath.Join(root, "sidecar", "node_modules", "@anthropic-ai", "claude-agent-sdk-"+pkg, binary)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		tried = append(tried, p)
	}
	return "", fmt.Errorf("the claude CLI is not installed (looked for %s); run scripts/setup, or set CLAUDE_CODE_EXECUTABLE",
		strings.Join(tried, ", "))
}

// CLIEnv is the environment for a claude CLI that must talk only to the fake API at baseURL:
// os.Environ() without any ANTHROPIC_* or CLAUDE_* variable (nothing of the developer's own setup
// leaks in), with HOME=home, CLAUDE_CONFIG_DIR=home/.claude, the fake's URL and key, no
// nonessential traffic and no retries. CLAUDE_CODE_TMPDIR=home/tmp keeps the CLI's scratch files
// (otherwise /tmp/claude-<uid>/…, never removed) inside the test's temp home; the CLI creates it.
// Nor does the machine's desktop, editor, git setup or locale leak in (see machineSpecific): a run must
// be the same on every machine, and the CLI's git (Bash tool, status probes) must not read the
// developer's git config or, inside a git hook, the GIT_DIR of Baton's own repository.
func CLIEnv(baseURL, home string) []string {
	overrides := []string{
		"HOME=" + home,
		"CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL=" + baseURL,
		"ANTHROPIC_API_KEY=" + FakeAPIKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDE_CODE_MAX_RETRIES=0",
		"CLAUDE_CODE_TMPDIR=" + filepath.Join(home, "tmp"),
		// A proxy configured on the machine must never carry the fake's loopback traffic.
		"NO_PROXY=127.0.0.1,localhost,::1",
		"no_proxy=127.0.0.1,localhost,::1",
		"GIT_CONFIG_NOSYSTEM=1", // the global config is home's own (none); this drops /etc/gitconfig
		"LANG=C.UTF-8",
	}
	if runtime.GOOS == "windows" {
		overrides = append(overrides, "USERPROFILE="+home) // os.homedir() reads this on Windows
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "ANTHROPIC_") || strings.HasPrefix(upper, "CLAUDE_") || machineSpecific(upper) ||
			upper == "HOME" || upper == "NO_PROXY" || (runtime.GOOS == "windows" && upper == "USERPROFILE") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, overrides...)
}

// machineSpecific reports whether the (upper-cased) variable describes this machine's desktop, editor, git
// setup or locale rather than anything a test chose.
func machineSpecific(upper string) bool {
	switch upper {
	case "DISPLAY", "WAYLAND_DISPLAY", "BROWSER", "EDITOR", "VISUAL", "XDG_CONFIG_HOME", "LANG", "LANGUAGE":
		return true
	}
	return strings.HasPrefix(upper, "GIT_") || strings.HasPrefix(upper, "LC_")
}

// TempDir is t.TempDir() with symlinks resolved, because the CLI reports and keys projects by the
// real path (on macOS /var is /private/var).
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatalf("resolve temp dir: %v", err)
	}
	return dir
}

// NewHome makes a temp HOME holding an empty .claude/ config dir (removed when the test ends).
func NewHome(t testing.TB) string {
	t.Helper()
	home := TempDir(t)
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatalf("make temp .claude: %v", err)
	}
	return home
}

// NewProject makes an empty temp project directory (the CLI's working directory).
func NewProject(t testing.TB) string {
	t.Helper()
	return TempDir(t)
}

// RequireClaude returns ClaudePath(), failing the test when the CLI is missing: tests that run it
// must not pass silently on a machine without it.
func RequireClaude(t testing.TB) string {
	t.Helper()
	p, err := ClaudePath()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// UseHome points this test process (and so every sidecar and claude it starts) at a temp home: HOME,
// CLAUDE_CONFIG_DIR, BATON_DATA_DIR and CLAUDE_CODE_EXECUTABLE=claude, with no credential variables left over from
// the developer's own environment. t.Setenv restores everything after the test.
func UseHome(t *testing.T, home, claude string) {
	t.Helper()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	t.Setenv("CLAUDE_CODE_EXECUTABLE", claude)
	t.Setenv("BATON_DATA_DIR", filepath.Join(home, "baton"))
	for _, name := range []string{"ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_AUTH_TOKEN"} {
		t.Setenv(name, "") // registers the restore
		if err := os.Unsetenv(name); err != nil {
			t.Fatal(err)
		}
	}
}
