package terminal

import (
	"os"
	"os/exec"
	"strings"
)

// LoginShell is the shell a Windows terminal program opens: PowerShell (7, else Windows PowerShell) without its
// banner, else the command interpreter %ComSpec% names, else cmd.exe.
func LoginShell() []string {
	for _, ps := range []string{"pwsh.exe", "powershell.exe"} {
		if p, err := exec.LookPath(ps); err == nil {
			return []string{p, "-NoLogo"}
		}
	}
	if cs := strings.TrimSpace(os.Getenv("ComSpec")); cs != "" {
		return []string{cs}
	}
	return []string{"cmd.exe"}
}
