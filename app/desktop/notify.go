package desktop

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"time"
)

// nativeNotifier returns a way to show desktop notifications where this system has one (Wails v2 has none of
// its own), or nil.
func nativeNotifier() func(title, body string) error {
	switch runtime.GOOS {
	case "linux":
		path, err := exec.LookPath("notify-send")
		if err != nil {
			return nil
		}
		return func(title, body string) error {
			// "--" ends the options: a title is a session's first prompt, which may start with "-".
			return runNotifier(path, "--app-name=Baton", "--", title, body)
		}
	case "darwin":
		return func(title, body string) error {
			script := fmt.Sprintf("display notification %q with title %q", body, title)
			return runNotifier("osascript", "-e", script)
		}
	default:
		return nil
	}
}

func runNotifier(name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := exec.CommandContext(ctx, name, args...).Run(); err != nil {
		return fmt.Errorf("show a notification: %w", err)
	}
	return nil
}
