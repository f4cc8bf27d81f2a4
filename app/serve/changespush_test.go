package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/internal/fakeapi"
	"github.com/baton-console/baton/app/internal/testenv"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sessionmeta"
	"github.com/coder/websocket"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// An open worktree session's change counts reach the browser as its folder changes, with nothing asked: here the
// edits are made by hand, outside Claude (as in a terminal), on real git, the real file system and the real
// session runtime.
func TestChangeCountsArePushedAsTheFolderChanges(t *testing.T) {
	claude := testenv.RequireClaude(t)
	fake, err := fakeapi.Start(fakeapi.DefaultScript())
	require.NoError(t, err)
	t.Cleanup(fake.Close)
	home := testenv.NewHome(t)
	cfgFile := filepath.Join(home, "gitconfig")
	require.NoError(t, os.WriteFile(cfgFile, []byte("[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644))
	t.Setenv("GIT_CONFIG_GLOBAL", cfgFile)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	project := testenv.NewProject(t)
	for _, args := range [][]string{{"init", "--quiet"}, {"commit", "--quiet", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = project
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}

	env := append(testenv.CLIEnv(fake.URL(), home), "CLAUDE_CODE_EXECUTABLE="+claude)
	m := session.NewManager(session.Config{SidecarPath: testenv.SidecarPath(t), Env: env, Logger: zerolog.Nop()})
	meta, err := sessionmeta.Open(t.TempDir())
	require.NoError(t, err)
	srv := serveConsole(t, console.Options{Sessions: m, Host: console.NewHostState(), Meta: meta}, nil)

	wctx, wcancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer wcancel()
	conn, _, err := dialWS(wctx, srv.Addr().String(), tokenOf(srv.URL()), nil)
	require.NoError(t, err)
	conn.SetReadLimit(16 << 20)
	defer conn.CloseNow()
	start := fmt.Sprintf(`{"id":1,"method":"startSession","params":{"cwd":%q,"worktree":{"prompt":"watch me"}}}`, project)
	require.NoError(t, conn.Write(wctx, websocket.MessageText, []byte(start)))

	var session string
	var early []console.ChangesUpdate // pushes read before the start's reply named the session
	// next reads until a `changes` push for the session that satisfies ok (the session's id from the start's reply).
	next := func(ok func(console.ChangesUpdate) bool) console.ChangesUpdate {
		t.Helper()
		for {
			for len(early) > 0 && session != "" {
				u := early[0]
				early = early[1:]
				if u.Session == session && ok(u) {
					return u
				}
			}
			_, data, err := conn.Read(wctx)
			require.NoError(t, err, "a changes push")
			var msg struct {
				ID      *int                   `json:"id"`
				Type    string                 `json:"type"`
				Result  *console.StartResult   `json:"result"`
				Error   *console.Error         `json:"error"`
				Changes *console.ChangesUpdate `json:"changes"`
			}
			require.NoError(t, json.Unmarshal(data, &msg))
			if msg.ID != nil {
				require.Nil(t, msg.Error)
				session = msg.Result.Session
			}
			if msg.Type == "changes" {
				early = append(early, *msg.Changes)
			}
		}
	}
	first := next(func(console.ChangesUpdate) bool { return true })
	require.Equal(t, console.ChangesUpdate{Session: session, Worktree: true}, first, "a new worktree has no changes")

	wt := filepath.Join(project, ".claude", "worktrees", "watch-me")
	require.NoError(t, os.MkdirAll(filepath.Join(wt, "docs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(wt, "docs", "notes.md"), []byte("one\ntwo\nthree\n"), 0o644))
	got := next(func(u console.ChangesUpdate) bool { return u.Files == 1 })
	require.Equal(t, console.ChangesUpdate{Session: session, Worktree: true, Files: 1, Added: 3}, got)

	require.NoError(t, os.WriteFile(filepath.Join(wt, "b.txt"), []byte("b\n"), 0o644))
	got = next(func(u console.ChangesUpdate) bool { return u.Files == 2 })
	require.Equal(t, 4, got.Added)
}
