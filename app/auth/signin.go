package auth

import (
	"fmt"
	"runtime"
	"strings"
)

// SignInCommand is claude's own login, as argv: Baton never handles the user's password or tokens itself.
func SignInCommand(executable string) []string {
	return []string{executable, "auth", "login"}
}

// SignInCommandLine is SignInCommand as one line to paste into a terminal. When env sets CLAUDE_CONFIG_DIR the
// line sets it too, or the login would land in ~/.claude where Baton's sessions do not look.
func SignInCommandLine(executable string, env []string) string {
	windows := runtime.GOOS == "windows"
	quote := shellQuote
	if windows {
		quote = cmdQuote
	}
	words := SignInCommand(executable)
	for i, w := range words {
		words[i] = quote(w)
	}
	line := strings.Join(words, " ")
	if dir, ok := envLookup(env, envConfigDir); ok && dir != "" {
		if windows {
			return fmt.Sprintf(`set "%s=%s" && %s`, envConfigDir, dir, line)
		}
		return envConfigDir + "=" + shellQuote(dir) + " " + line
	}
	return line
}

// NoTerminalError means no terminal window could be opened; the caller shows Command for the user to copy.
type NoTerminalError struct {
	Command string // the exact line to run (SignInCommandLine)
	Reason  string // why no window opened, for people
}

func (e *NoTerminalError) Error() string {
	return fmt.Sprintf("Baton could not open a terminal window (%s). To sign in, run this in a terminal: %s", e.Reason, e.Command)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@+,%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// cmdQuote quotes s for cmd.exe when it holds spaces or is empty.
func cmdQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t&()^|<>") {
		return s
	}
	return `"` + s + `"`
}
