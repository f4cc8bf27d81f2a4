package console_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// gitAPI is the console API with Baton's session records in a temporary data folder and a real repository (one
// commit on main, pushed to a local bare repository as origin) under a git config of the test's own.
type gitAPI struct {
	t      *testing.T
	api    *console.API
	meta   *sessionmeta.Store
	repo   string
	remote string
}

func newGitAPI(t *testing.T) *gitAPI {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	require.NoError(t, os.WriteFile(cfg, []byte("[user]\n\tname = Test\n\temail = test@example.com\n"+
		"[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"), 0o644))
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	meta, err := sessionmeta.Open(t.TempDir())
	require.NoError(t, err)
	m := session.NewManager(session.Config{Logger: zerolog.Nop()})
	api := console.New(console.Options{Sessions: m, Transport: "websocket", Logger: zerolog.Nop(), Meta: meta})
	t.Cleanup(func() { console.Release(api) })
	base := t.TempDir()
	g := &gitAPI{t: t, api: api, meta: meta, repo: filepath.Join(base, "repo"), remote: filepath.Join(base, "remote.git")}
	g.git(base, "init", "--quiet", "--bare", g.remote)
	g.git(base, "init", "--quiet", g.repo)
	g.write(g.repo, "README.md", "hello\n")
	g.write(g.repo, "src/app.go", numbered(1, 30))
	g.git(g.repo, "add", "-A")
	g.git(g.repo, "commit", "--quiet", "-m", "first")
	g.git(g.repo, "remote", "add", "origin", g.remote)
	g.git(g.repo, "push", "--quiet", "-u", "origin", "main")
	return g
}

// worktree makes a session's worktree as startSession does and records it with the session id.
func (g *gitAPI) worktree(id, prompt string) gitwork.Worktree {
	g.t.Helper()
	c, err := gitwork.Create(context.Background(), g.repo, gitwork.CreateOptions{Prompt: prompt})
	require.NoError(g.t, err)
	_, err = g.meta.Update(id, func(m *sessionmeta.Meta) {
		m.Worktree = sessionmeta.Worktree{Repo: c.Repo, Path: c.Path, Branch: c.Branch, Base: c.Base}
	})
	require.NoError(g.t, err)
	return c.Worktree
}

// call runs method through the real dispatch, as both transports do, and decodes its result into out.
func (g *gitAPI) call(method string, params, out any) *console.Error {
	g.t.Helper()
	raw, err := json.Marshal(params)
	require.NoError(g.t, err)
	res, err := console.Methods(g.api)[method](raw)
	if err != nil {
		return console.AsError(err)
	}
	data, err := json.Marshal(res)
	require.NoError(g.t, err)
	require.NoError(g.t, json.Unmarshal(data, out))
	return nil
}

func (g *gitAPI) mustCall(method string, params, out any) {
	g.t.Helper()
	if e := g.call(method, params, out); e != nil {
		g.t.Fatalf("%s: %s (%s)", method, e.Message, e.Code)
	}
}

func (g *gitAPI) write(dir, rel, content string) {
	g.t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(g.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(g.t, os.WriteFile(p, []byte(content), 0o644))
}

func (g *gitAPI) git(dir string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(g.t, err, "git %v: %s", args, out)
	return strings.TrimSpace(string(out))
}

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString("line ")
		b.WriteString(itoa(i))
		b.WriteString("\n")
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
