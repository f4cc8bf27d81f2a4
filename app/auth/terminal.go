package auth

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// linuxTerminals are tried in order; each runs the program after its flag ("-e", or "--" for gnome-terminal).
var linuxTerminals = []struct{ name, flag string }{
	{"x-terminal-emulator", "-e"},
	{"gnome-terminal", "--"},
	{"konsole", "-e"},
	{"xterm", "-e"},
}

// OpenSignInTerminal opens a terminal window that runs claude's login (SignInCommand) with env (nil: Baton's
// own). It returns once the window is launched; Baton's watcher notices the new login by itself. When no window
// can be opened the error is a *NoTerminalError carrying the command to show instead.
func OpenSignInTerminal(ctx context.Context, executable string, env []string) error {
	if executable == "" {
		return errors.New("no claude executable was found to sign in with; run `baton provision` first")
	}
	env = sessionEnv(env)
	noTerminal := func(reason string) error {
		return &NoTerminalError{Command: SignInCommandLine(executable, env), Reason: reason}
	}
	switch runtime.GOOS {
	case "windows":
		return openWindowsConsole(executable, env, noTerminal)
	case "darwin":
		return openMacTerminal(ctx, executable, env, noTerminal)
	default:
		return openUnixTerminal(executable, env, noTerminal)
	}
}

func openUnixTerminal(executable string, env []string, noTerminal func(string) error) error {
	if !envSet(env, "DISPLAY") && !envSet(env, "WAYLAND_DISPLAY") {
		return noTerminal("there is no graphical display")
	}
	pathVar, _ := envLookup(env, "PATH")
	for _, t := range linuxTerminals {
		term := lookPathIn(t.name, pathVar)
		if term == "" {
			continue
		}
		script, err := writeSignInScript(executable, env)
		if err != nil {
			return fmt.Errorf("prepare the sign-in window: %w", err)
		}
		cmd := exec.Command(term, t.flag, script)
		cmd.Env = env
		detach(cmd)
		if err := cmd.Start(); err != nil {
			_ = os.Remove(script)
			continue // a broken alternative; try the next terminal
		}
		go func() { _ = cmd.Wait() }() // reap it; the window lives on its own
		return nil
	}
	return noTerminal("no terminal program was found (looked for x-terminal-emulator, gnome-terminal, konsole, xterm)")
}

func openMacTerminal(ctx context.Context, executable string, env []string, noTerminal func(string) error) error {
	osascript := lookPathIn("osascript", "/usr/bin")
	if osascript == "" {
		return noTerminal("osascript is missing")
	}
	script, err := writeSignInScript(executable, env)
	if err != nil {
		return fmt.Errorf("prepare the sign-in window: %w", err)
	}
	// Terminal.app starts its shells from launchd, not from Baton: the script carries what the login needs.
	do := `do script "` + appleScriptEscape(shellQuote(script)) + `"`
	cmd := exec.CommandContext(ctx, osascript, "-e", `tell application "Terminal"`, "-e", "activate", "-e", do, "-e", "end tell")
	cmd.Env = env
	if err := cmd.Run(); err != nil {
		_ = os.Remove(script)
		return noTerminal("Terminal could not be opened")
	}
	return nil
}

func openWindowsConsole(executable string, env []string, noTerminal func(string) error) error {
	// `start` opens a new console window; "/k" keeps it open so the user can read the outcome.
	cmd := exec.Command("cmd", "/c", "start", "Sign in to Claude", "cmd", "/k", executable, "auth", "login")
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		return noTerminal("cmd.exe could not be started")
	}
	go func() { _ = cmd.Wait() }()
	return nil
}

// writeSignInScript writes a shell script that runs the login and keeps the window open until Enter. It
// deletes itself as it starts, so nothing is left behind however the window ends. It holds no secret.
func writeSignInScript(executable string, env []string) (string, error) {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# Baton: sign in to Claude Code.\nrm -f \"$0\"\n")
	if dir, ok := envLookup(env, envConfigDir); ok && dir != "" {
		fmt.Fprintf(&b, "%s=%s; export %s\n", envConfigDir, shellQuote(dir), envConfigDir)
	}
	fmt.Fprintf(&b, "%s auth login\nstatus=$?\necho\n", shellQuote(executable))
	b.WriteString(`if [ "$status" -eq 0 ]; then echo "Done. Baton picks up the sign-in by itself; you can close this window."; ` +
		`else echo "claude auth login ended with status $status."; fi` + "\n")
	b.WriteString("printf 'Press Enter to close this window. '\nread _\n")

	f, err := os.CreateTemp("", "baton-sign-in-*.sh")
	if err != nil {
		return "", err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	if err := os.Chmod(f.Name(), 0o700); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// lookPathIn finds an executable named name in the PATH-style list dirs (the env's PATH, not Baton's).
func lookPathIn(name, dirs string) string {
	for _, dir := range filepath.SplitList(dirs) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func appleScriptEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}
