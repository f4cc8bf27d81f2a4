//go:build linux

package provision

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// inNamespace runs a child in its own user and mount namespaces, where it may mount a tmpfs without privileges
// and without touching the host's mounts.
func inNamespace(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
}

// mountDataDir (in the child) covers dir with a read-only or a 64 KiB tmpfs.
func mountDataDir(dir, kind string) error {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	var flags uintptr
	data := "size=64k"
	if kind == "ro" {
		flags = syscall.MS_RDONLY
	}
	return syscall.Mount("tmpfs", dir, "tmpfs", flags, data)
}
