package auth

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Paths are the files that decide the CLI's sign-in, resolved the way the CLI resolves them (§6 of the SDK facts).
type Paths struct {
	// ConfigDir is $CLAUDE_CONFIG_DIR, else ~/.claude.
	ConfigDir string `json:"configDir"`
	// Settings is <ConfigDir>/settings.json (apiKeyHelper, env, third-party provider settings).
	Settings string `json:"settings"`
	// Credentials is <ConfigDir>/.credentials.json (the claude.ai login on Linux and Windows).
	Credentials string `json:"credentials"`
	// GlobalState is ~/.claude.json, or <ConfigDir>/.claude.json when CLAUDE_CONFIG_DIR is set.
	GlobalState string `json:"globalState"`
}

// ResolvePaths finds the sign-in files for a CLI run with env. HOME (USERPROFILE on Windows) comes from env,
// falling back to Baton's own home directory.
func ResolvePaths(env []string) (Paths, error) {
	home, err := homeDir(env)
	if err != nil {
		return Paths{}, err
	}
	if dir, ok := envLookup(env, envConfigDir); ok && dir != "" {
		dir, err := filepath.Abs(dir)
		if err != nil {
			return Paths{}, fmt.Errorf("CLAUDE_CONFIG_DIR is not a usable path: %w", err)
		}
		return pathsIn(dir, filepath.Join(dir, ".claude.json")), nil
	}
	dir := filepath.Join(home, ".claude")
	return pathsIn(dir, filepath.Join(home, ".claude.json")), nil
}

func pathsIn(configDir, globalState string) Paths {
	return Paths{
		ConfigDir:   configDir,
		Settings:    filepath.Join(configDir, "settings.json"),
		Credentials: filepath.Join(configDir, ".credentials.json"),
		GlobalState: globalState,
	}
}

// homeDir is the home directory the CLI will see (os.homedir() reads HOME on POSIX, USERPROFILE on Windows).
func homeDir(env []string) (string, error) {
	name := envHome
	if runtime.GOOS == "windows" {
		name = envUserProfile
	}
	if h, ok := envLookup(env, name); ok && h != "" {
		return filepath.Abs(h)
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the home directory that holds claude's sign-in files: %w", err)
	}
	if h == "" {
		return "", errors.New("cannot find the home directory that holds claude's sign-in files")
	}
	return h, nil
}
