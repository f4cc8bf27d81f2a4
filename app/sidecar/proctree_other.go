//go:build !linux && !windows

package sidecar

import "os/exec"

// procTree is a started sidecar. Without a subreaper (macOS, the BSDs) what it leaves is reached through its
// process group only (endProcessGroup): a Bash tool's own group outlives it there.
type procTree struct{ pid int }

func startTree(cmd *exec.Cmd) (*procTree, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &procTree{pid: cmd.Process.Pid}, nil
}

func (t *procTree) ended() {}
