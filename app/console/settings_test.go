package console

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/baton-console/baton/app/session"
)

func settingsAPI(t *testing.T, dir string) (*API, *session.Manager) {
	t.Helper()
	m := session.NewManager(session.Config{Logger: zerolog.Nop(), Idle: 10 * time.Minute})
	store, err := OpenSettings(dir, DefaultSettings(int(m.Idle()/time.Second)))
	require.NoError(t, err)
	return New(Options{Sessions: m, Logger: zerolog.Nop(), Settings: store}), m
}

func TestSettingsAreSavedInTheDataDirAndReadAfterARestart(t *testing.T) {
	dir := t.TempDir()
	api, m := settingsAPI(t, dir)
	first, err := api.GetSettings(Empty{})
	require.NoError(t, err)
	assert.Equal(t, DefaultSettings(600), first)

	want := Settings{DefaultModel: "opus", DefaultPermissionMode: activity.PermissionModeAcceptEdits, Theme: ThemeDark,
		Notifications: false, SessionIdleSeconds: 1800, Worktrees: WorktreeDefaults{StartInWorktree: true, BranchPrefix: "me/"}}
	got, err := api.SaveSettings(want)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, 30*time.Minute, m.Idle(), "the idle time applies at once")

	again, _ := settingsAPI(t, dir) // a new run over the same data dir
	read, err := again.GetSettings(Empty{})
	require.NoError(t, err)
	assert.Equal(t, want, read)
}

func TestTheSidebarsIdleChoiceSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	api, _ := settingsAPI(t, dir)
	_, err := api.SetSessionIdle(IdleParams{Seconds: 0})
	require.NoError(t, err)
	again, _ := settingsAPI(t, dir)
	read, err := again.GetSettings(Empty{})
	require.NoError(t, err)
	assert.Equal(t, 0, read.SessionIdleSeconds, "issue 28: the idle time reset on restart")
}

func TestSettingsThatCannotBeKeptAreRefusedWithReasons(t *testing.T) {
	api, _ := settingsAPI(t, t.TempDir())
	good := DefaultSettings(60)
	for name, bad := range map[string]func(*Settings){
		"no model":   func(s *Settings) { s.DefaultModel = "  " },
		"mode":       func(s *Settings) { s.DefaultPermissionMode = "sometimes" },
		"bypass":     func(s *Settings) { s.DefaultPermissionMode = activity.PermissionModeBypassPermissions },
		"theme":      func(s *Settings) { s.Theme = "sepia" },
		"idle":       func(s *Settings) { s.SessionIdleSeconds = -1 },
		"idle > max": func(s *Settings) { s.SessionIdleSeconds = maxIdleSeconds + 1 },
		"prefix":     func(s *Settings) { s.Worktrees.BranchPrefix = "my work/" },
	} {
		s := good
		bad(&s)
		_, err := api.SaveSettings(s)
		var apiErr *Error
		require.ErrorAs(t, err, &apiErr, name)
		assert.Equal(t, CodeBadRequest, apiErr.Code, name)
	}
}

func TestASettingsFileThatCannotBeReadIsNamedNotOverwritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, SettingsFileName)
	require.NoError(t, os.WriteFile(path, []byte("{not json"), 0o600))
	_, err := OpenSettings(dir, DefaultSettings(60))
	require.ErrorContains(t, err, path)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "{not json", string(data))
}

// A file saved before the worktree defaults existed reads theirs: new sessions in their folder, branches baton/.
func TestAnOlderSettingsFileReadsTheWorktreeDefaults(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, SettingsFileName), []byte(`{"defaultModel":"opus","defaultPermissionMode":"plan",
		"theme":"dark","notifications":true,"sessionIdleSeconds":60,"worktrees":{}}`), 0o600))
	api, _ := settingsAPI(t, dir)
	read, err := api.GetSettings(Empty{})
	require.NoError(t, err)
	assert.Equal(t, WorktreeDefaults{StartInWorktree: false, BranchPrefix: "baton/"}, read.Worktrees)
	assert.Equal(t, "opus", read.DefaultModel)
}

// A worktree session started from the console names its branch with the saved prefix. (This API has no sidecar,
// so the start fails at the setup command, whose output is the branch the worktree got.)
func TestAWorktreeStartTakesTheSavedBranchPrefix(t *testing.T) {
	gittest.Isolate(t)
	repo := filepath.Join(t.TempDir(), "repo")
	gittest.Init(t, repo, map[string]string{"README.md": "hello\n"})
	gittest.Git(t, repo, "config", "baton.setup", "git branch --show-current; exit 3")
	api, _ := settingsAPI(t, t.TempDir())
	s := DefaultSettings(60)
	s.Worktrees.BranchPrefix = " me/ "
	saved, err := api.SaveSettings(s)
	require.NoError(t, err)
	assert.Equal(t, "me/", saved.Worktrees.BranchPrefix, "trimmed")
	_, err = api.StartSession(StartParams{Cwd: repo, Worktree: &WorktreeStart{Prompt: "Fix it"}})
	require.ErrorContains(t, err, "Its output:\nme/fix-it\n")
}
