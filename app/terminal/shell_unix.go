//go:build !windows

package terminal

import (
	"bufio"
	"os"
	"os/user"
	"strings"
)

// LoginShell is the person's login shell as argv: $SHELL, else their passwd entry's, else /bin/sh; with -l so it
// reads their profile as a terminal program's first shell does.
func LoginShell() []string {
	if sh := strings.TrimSpace(os.Getenv("SHELL")); sh != "" {
		return []string{sh, "-l"}
	}
	if sh := passwdShell("/etc/passwd"); sh != "" {
		return []string{sh, "-l"}
	}
	return []string{"/bin/sh", "-l"}
}

// passwdShell reads the current user's shell from a passwd file ("" when it is not there).
func passwdShell(path string) string {
	u, err := user.Current()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) == 7 && fields[2] == u.Uid {
			return strings.TrimSpace(fields[6])
		}
	}
	return ""
}
