package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// gitRepoProject makes the harness's project a git repository with one commit, with a git config of the test's
// own (user.name and email; nothing of the machine's).
func gitRepoProject(t *testing.T, h *cliHarness) {
	t.Helper()
	cfg := filepath.Join(h.home, "gitconfig")
	require.NoError(t, os.WriteFile(cfg, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644))
	h.env = append(h.env, "GIT_CONFIG_GLOBAL="+cfg, "GIT_CONFIG_NOSYSTEM=1")
	require.NoError(t, os.WriteFile(filepath.Join(h.project, "README.md"), []byte("hello\n"), 0o644))
	for _, args := range [][]string{{"init", "--quiet"}, {"add", "-A"}, {"commit", "--quiet", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = h.project, h.env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
}

func gitIn(t *testing.T, h *cliHarness, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, h.env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

// `baton exec --worktree` runs the session in a new worktree: the scripted model's Write lands there, not in the
// main checkout; `baton changes` lists it and `baton land --merge` brings exactly it into main.
func TestExecInAWorktreeThenChangesAndLand(t *testing.T) {
	h := newCLIHarness(t)
	gitRepoProject(t, h)
	const id = "27272727-0000-4000-8000-000000000001"
	r := h.run("exec", "--json", "--worktree", "--approve", "all", "--permission-mode", "default", "--session-id", id, "[write made.txt hi]")
	require.Equal(t, 0, r.code, r.stderr)
	require.Len(t, find(parseEvents(t, r.stdout), activity.TurnCompleted), 1)
	wt := filepath.Join(h.project, ".claude", "worktrees", "write-made-txt-hi")
	require.Contains(t, r.stderr, "baton: worktree "+wt+" (new branch baton/write-made-txt-hi, base main)")
	data, err := os.ReadFile(filepath.Join(wt, "made.txt"))
	require.NoError(t, err, "the Write ran in the worktree")
	require.Equal(t, "hi\n", string(data))
	_, err = os.Stat(filepath.Join(h.project, "made.txt"))
	require.ErrorIs(t, err, os.ErrNotExist, "the main checkout is untouched")
	require.Empty(t, gitIn(t, h, h.project, "status", "--porcelain"))

	r = h.run("changes", "--json", id)
	require.Equal(t, 0, r.code, r.stderr)
	var rep struct {
		Folder string `json:"folder"`
		Base   string `json:"base"`
		Files  []struct {
			Path   string `json:"path"`
			Status string `json:"status"`
			Added  int    `json:"added"`
		} `json:"files"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	require.Equal(t, wt, rep.Folder)
	require.Equal(t, "main", rep.Base)
	require.Len(t, rep.Files, 1)
	require.Equal(t, "made.txt", rep.Files[0].Path)
	require.Equal(t, "added", rep.Files[0].Status)
	require.Equal(t, 1, rep.Files[0].Added)
	r = h.run("changes", id)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "added")
	require.Contains(t, r.stdout, "made.txt")

	r = h.run("land", id, "--merge")
	require.Equal(t, 1, r.code, "uncommitted work needs a message")
	require.Contains(t, r.stderr, "--message")
	r = h.run("land", id, "--merge", "--message", "Add made.txt")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Landed 1 commit(s) of baton/write-made-txt-hi in main (fast-forward)")
	require.Equal(t, "Add made.txt", gitIn(t, h, h.project, "log", "-1", "--format=%s"))
	require.Equal(t, "hi\n", gitIn(t, h, h.project, "show", "HEAD:made.txt")+"\n")
	require.Empty(t, gitIn(t, h, h.project, "status", "--porcelain"))
}

func TestWorktreeCommandUsageErrors(t *testing.T) {
	h := newCLIHarness(t)
	for _, args := range [][]string{
		{"exec", "--branch", "x", "hi"},
		{"exec", "--worktree", "--resume", "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "hi"},
		{"changes"},
		{"changes", "not-a-uuid"},
		{"land", "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b"},
		{"land", "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "--merge", "--squash"},
	} {
		r := h.run(args...)
		require.Equal(t, 2, r.code, "baton %v should be a usage error; stderr: %s", args, r.stderr)
		require.Contains(t, r.stderr, "usage: baton")
	}
	r := h.run("exec", "--worktree", "--approve", "all", "hi")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "not a git repository: run `git init` there")
	r = h.run("land", "0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b", "--merge")
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "was not started in a worktree")
}

// `baton land --pr` pushes the branch to the remote (a local bare repository), opens the pull request with gh and
// prints its checks. gh cannot reach GitHub here: it is a stand-in on PATH that records its arguments and prints
// canned JSON for `gh pr checks`. Without gh on PATH the exact commands to run are printed instead.
func TestLandPRPrintsItsChecksOrTheCommands(t *testing.T) {
	h := newCLIHarness(t)
	gitRepoProject(t, h)
	remote := filepath.Join(t.TempDir(), "remote.git")
	gitIn(t, h, h.project, "init", "--quiet", "--bare", remote)
	gitIn(t, h, h.project, "remote", "add", "origin", remote)
	gitIn(t, h, h.project, "push", "--quiet", "-u", "origin", "main")
	const id = "27272727-0000-4000-8000-000000000003"
	r := h.run("exec", "--worktree", "--approve", "all", "--permission-mode", "default", "--session-id", id, "[write pr.txt hi]")
	require.Equal(t, 0, r.code, r.stderr)
	branch := "baton/write-pr-txt-hi"

	// Only git and sh on PATH: no gh, whatever the machine has.
	bin := t.TempDir()
	for _, name := range []string{"git", "sh"} {
		p, err := exec.LookPath(name)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(p, filepath.Join(bin, name)))
	}
	base := h.env
	h.env = append(append([]string(nil), base...), "PATH="+bin)
	r = h.run("land", id, "--pr", "--message", "Add pr.txt")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Pushed "+branch+" to origin; gh (GitHub's CLI) is not on PATH, so open the pull request with:")
	require.Contains(t, r.stdout, "See its checks with:\n")
	require.Contains(t, r.stdout, "  gh pr checks "+branch+"\n")

	ghDir := t.TempDir()
	record := filepath.Join(ghDir, "args.txt")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + record + "'\n" +
		"if [ \"$2\" = checks ]; then echo '" + `[{"name":"test","state":"FAILURE","bucket":"fail","link":"https://ci.example/9"}]` + "'; exit 1; fi\n" +
		"[ \"$1\" = pr ] && echo https://github.example/o/r/pull/9\nexit 0\n"
	require.NoError(t, os.WriteFile(filepath.Join(ghDir, "gh"), []byte(script), 0o755))
	h.env = append(append([]string(nil), base...), "PATH="+ghDir+string(os.PathListSeparator)+bin)
	r = h.run("land", id, "--pr")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "and opened https://github.example/o/r/pull/9\nChecks:\n  fail     test https://ci.example/9\n")
	data, err := os.ReadFile(record)
	require.NoError(t, err)
	require.Contains(t, string(data), "pr checks "+branch+" --json name,state,bucket,link\n")
}
