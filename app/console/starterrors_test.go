package console_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"
)

// startSession with a folder a session cannot work in is the user's to fix: the console answers bad_request
// (not internal) with a message that names the folder and says what to do. The call goes through the real
// dispatch and the real session manager; the folder is refused before any process starts.
func TestAFolderThatCannotBeUsedIsABadRequest(t *testing.T) {
	m := session.NewManager(session.Config{Logger: zerolog.Nop()})
	api := console.New(console.Options{Sessions: m, Transport: "websocket", Logger: zerolog.Nop()})
	defer console.Release(api)
	start := console.Methods(api)["startSession"]

	root := t.TempDir()
	file := filepath.Join(root, "notes.txt")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	call := func(t *testing.T, cwd string) *console.Error {
		t.Helper()
		params, err := json.Marshal(console.StartParams{Cwd: cwd})
		require.NoError(t, err)
		_, err = start(params)
		require.Error(t, err)
		return console.AsError(err)
	}

	for _, tc := range []struct{ name, cwd, want string }{
		{"missing", filepath.Join(root, "gone"), "the folder " + filepath.Join(root, "gone") + " does not exist; choose an existing project folder"},
		{"through a file", filepath.Join(file, "sub"), "the folder " + filepath.Join(file, "sub") + " does not exist; choose an existing project folder"},
		{"a file", file, file + " is a file, not a folder; choose the project folder that holds it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := call(t, tc.cwd)
			require.Equal(t, console.CodeBadRequest, e.Code)
			require.Equal(t, tc.want, e.Message)
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads every folder, so an unreadable one cannot be made here")
		}
		locked := filepath.Join(root, "locked")
		require.NoError(t, os.Mkdir(locked, 0o000))
		t.Cleanup(func() { _ = os.Chmod(locked, 0o700) })
		e := call(t, locked)
		require.Equal(t, console.CodeBadRequest, e.Code)
		require.Equal(t, "Baton may not read the folder "+locked+"; choose another folder or allow your user to read it", e.Message)
	})
	require.Empty(t, m.Open(), "a refused start leaves no session open")
}

// What the caller asked for wrongly is bad_request and what it named that is not there is not_found, never
// internal: a relative folder (relative to Baton's own folder, which is no project's), a malformed session id, and
// the sidecar's own refusals.
func TestValidationErrorsAreNotInternal(t *testing.T) {
	m := session.NewManager(session.Config{Logger: zerolog.Nop()})
	api := console.New(console.Options{Sessions: m, Transport: "websocket", Logger: zerolog.Nop()})
	defer console.Release(api)
	call := func(method string, params any) *console.Error {
		t.Helper()
		raw, err := json.Marshal(params)
		require.NoError(t, err)
		_, err = console.Methods(api)[method](raw)
		require.Error(t, err)
		return console.AsError(err)
	}
	e := call("startSession", console.StartParams{Cwd: "."})
	require.Equal(t, console.CodeBadRequest, e.Code, e.Message)
	require.Contains(t, e.Message, "full path")
	e = call("history", console.HistoryParams{Session: "not-a-uuid"})
	require.Equal(t, console.CodeBadRequest, e.Code, e.Message)

	require.Equal(t, console.CodeBadRequest, console.AsError(fmt.Errorf("change the permission mode: %w",
		&protocol.ErrorBody{Code: protocol.CodeBadRequest, Message: "unknown mode"})).Code)
	require.Equal(t, console.CodeNotFound, console.AsError(&protocol.ErrorBody{Code: protocol.CodeSessionNotFound}).Code)
	require.Equal(t, console.CodeInternal, console.AsError(&protocol.ErrorBody{Code: protocol.CodeSDKError}).Code)
	require.Empty(t, m.Open())
}
