// Package platform answers where Baton keeps its files on this operating system. It imports nothing of Baton's,
// so every other package may use it.
package platform

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// DataDir returns Baton's data directory: BATON_DATA_DIR when set, else the platform convention
// (XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application Support on macOS, %LocalAppData% on Windows).
func DataDir() (string, error) {
	if d := os.Getenv("BATON_DATA_DIR"); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", fmt.Errorf("BATON_DATA_DIR %q is not a usable path: %w", d, err)
		}
		return abs, nil
	}
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "Baton"), nil
		}
	case "darwin":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("cannot find your home directory to place Baton's data (set BATON_DATA_DIR): %w", err)
		}
		return filepath.Join(home, "Library", "Application Support", "Baton"), nil
	default:
		if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "baton"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find your home directory to place Baton's data (set BATON_DATA_DIR): %w", err)
	}
	if home == "" {
		return "", errors.New("cannot find your home directory to place Baton's data (set BATON_DATA_DIR)")
	}
	if runtime.GOOS == "windows" {
		return filepath.Join(home, "AppData", "Local", "Baton"), nil
	}
	return filepath.Join(home, ".local", "share", "baton"), nil
}
