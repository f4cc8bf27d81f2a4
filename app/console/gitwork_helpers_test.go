package console_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/gitwork"
	"github.com/baton-console/baton/app/internal/gittest"
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
	gittest.Isolate(t)
	meta, err := sessionmeta.Open(t.TempDir())
	require.NoError(t, err)
	m := session.NewManager(session.Config{Logger: zerolog.Nop()})
	api := console.New(console.Options{Sessions: m, Transport: "websocket", Logger: zerolog.Nop(), Meta: meta})
	t.Cleanup(func() { console.Release(api) })
	base := t.TempDir()
	g := &gitAPI{t: t, api: api, meta: meta, repo: filepath.Join(base, "repo"), remote: filepath.Join(base, "remote.git")}
	gittest.Init(t, g.repo, map[string]string{"README.md": "hello\n", "src/app.go": gittest.Numbered(1, 30)})
	gittest.Origin(t, g.repo, g.remote)
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

func (g *gitAPI) write(dir, rel, content string) { gittest.Write(g.t, dir, rel, content) }

func (g *gitAPI) git(dir string, args ...string) string { return gittest.Git(g.t, dir, args...) }

func itoa(i int) string { return strconv.Itoa(i) }
