//go:build !linux

package provision

import (
	"errors"
	"os/exec"
)

func inNamespace(*exec.Cmd) {}

func mountDataDir(string, string) error {
	return errors.New("mounting a test file system needs Linux namespaces")
}
