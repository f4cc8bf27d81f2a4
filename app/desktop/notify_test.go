package desktop

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The window's notifications go to notify-send on Linux. No notification daemon (nor a D-Bus session) can run
// here, so a stand-in notify-send, found on PATH like the real one, records the arguments it was run with: what
// the window sends is what a daemon would get.
func standInNotifySend(t *testing.T, exit int) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("native notifications go through notify-send on Linux only")
	}
	dir := t.TempDir()
	record := filepath.Join(dir, "args")
	script := fmt.Sprintf("#!/bin/sh\nfor a in \"$@\"; do printf '%%s\\n' \"$a\"; done > '%s'\nexit %d\n", record, exit)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755))
	t.Setenv("PATH", dir)
	return record
}

func TestANotificationSendsItsTitleAndBodyAsBaton(t *testing.T) {
	record := standInNotifySend(t, 0)
	notify := nativeNotifier()
	require.NotNil(t, notify, "notify-send is on PATH")
	// A session's title is its first prompt, which may start with "-": it is the title, not an option.
	require.NoError(t, notify("- fix the build needs you", "Bash: go test ./... --run 'A|B'"))
	raw, err := os.ReadFile(record)
	require.NoError(t, err)
	// One argument each, as given, after the end of options.
	require.Equal(t, []string{"--app-name=Baton", "--", "- fix the build needs you", "Bash: go test ./... --run 'A|B'"},
		strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n"))
}

func TestANotifierThatFailsSaysSo(t *testing.T) {
	standInNotifySend(t, 1)
	notify := nativeNotifier()
	require.NotNil(t, notify)
	err := notify("t", "b")
	require.ErrorContains(t, err, "show a notification")
}

func TestWithoutNotifySendTheWindowHasNoNativeNotifications(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	t.Setenv("PATH", t.TempDir())
	require.Nil(t, nativeNotifier())
}
