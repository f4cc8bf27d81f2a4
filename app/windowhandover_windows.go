//go:build headless && windows

package app

import (
	"os"
	"os/exec"
)

// handOver runs path and waits for it (Windows has no exec; its builds link the window, so this is a fallback).
func handOver(path string) error {
	cmd := exec.Command(path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}
