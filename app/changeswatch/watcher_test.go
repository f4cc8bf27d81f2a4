package changeswatch_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/changeswatch"
	"github.com/baton-console/baton/app/internal/gittest"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// A change anywhere in the checkout is reported: an edit in a subfolder, a file in a folder made after the watch
// began, a commit (git's folder only); on real git and the real file system.
func TestEveryKindOfChangeIsReported(t *testing.T) {
	dir := repo(t)
	changes := make(chan struct{}, 64)
	w, err := changeswatch.Watch(context.Background(), changeswatch.Options{Dir: dir, Logger: zerolog.Nop(),
		OnChange: func() { changes <- struct{}{} }})
	require.NoError(t, err)
	defer w.Close()

	gittest.Write(t, dir, "src/app.go", "package app // edited\n")
	await(t, changes, "an edit in a subfolder")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "new/deeper"), 0o755))
	await(t, changes, "a new folder")
	gittest.Write(t, dir, "new/deeper/file.txt", "hi\n")
	await(t, changes, "a file in a folder made after the watch began")
	gittest.Git(t, dir, "add", "-A")
	await(t, changes, "staging")
	gittest.Git(t, dir, "commit", "--quiet", "-m", "second")
	await(t, changes, "a commit")
	w.Poke()
	await(t, changes, "a poke")
}

// Past MaxDirs the poll stands in for the folders left unwatched.
func TestTooManyFoldersFallBackToThePoll(t *testing.T) {
	dir := repo(t)
	changes := make(chan struct{}, 64)
	w, err := changeswatch.Watch(context.Background(), changeswatch.Options{Dir: dir, MaxDirs: 1, Poll: 50 * time.Millisecond,
		Logger: zerolog.Nop(), OnChange: func() { changes <- struct{}{} }})
	require.NoError(t, err)
	defer w.Close()
	gittest.Write(t, dir, "src/app.go", "package app // edited where nothing watches\n")
	await(t, changes, "the poll")
}

func repo(t *testing.T) string {
	t.Helper()
	gittest.Isolate(t)
	dir := filepath.Join(t.TempDir(), "repo")
	gittest.Init(t, dir, map[string]string{"src/app.go": "package app\n", ".gitignore": "build/\n"})
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "build"), 0o755))
	return dir
}

// await waits for a report, draining the ones of the change before (a burst may be reported in two).
func await(t *testing.T, changes <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-changes:
	case <-time.After(30 * time.Second):
		t.Fatalf("no report of %s", what)
	}
	for {
		select {
		case <-changes:
		default:
			return
		}
	}
}
