package provision

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"time"
)

var versionPattern = regexp.MustCompile(`\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?`)

// ProbeVersion runs `<path> --version` and returns the first semantic version it prints ("2.1.332 (Claude
// Code)" → "2.1.332").
func ProbeVersion(ctx context.Context, path string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	// A version query has no reason to reach the network.
	cmd.Env = append(os.Environ(), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s --version did not answer within %s", path, timeout)
	}
	if err != nil {
		return "", fmt.Errorf("%s --version failed: %w", path, err)
	}
	v := versionPattern.FindString(string(out))
	if v == "" {
		return "", fmt.Errorf("%s --version printed no version number", path)
	}
	return v, nil
}

// fileSHA256 hashes a file.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("could not read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
