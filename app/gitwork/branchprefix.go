package gitwork

import (
	"fmt"
	"strings"
)

// MaxBranchPrefix bounds a branch prefix: it starts names that also become folder names.
const MaxBranchPrefix = 100

// CheckBranchPrefix says whether prefix can start a branch name, by git's rules for ref names (`git
// check-ref-format --branch`) checked here without git, so a setting is refused when it is saved rather than when a
// session starts. "" (no prefix) is fine.
func CheckBranchPrefix(prefix string) error {
	if len(prefix) > MaxBranchPrefix {
		return fmt.Errorf("a branch prefix is at most %d characters", MaxBranchPrefix)
	}
	if prefix == "" {
		return nil
	}
	name := prefix + "x" // what a name from the prompt makes of it
	if strings.HasPrefix(name, "-") || strings.HasPrefix(name, "/") {
		return fmt.Errorf("a branch name cannot start with %q", name[:1])
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return fmt.Errorf("a branch name cannot hold %q", r)
		}
	}
	for _, bad := range []string{"..", "//", "@{"} {
		if strings.Contains(name, bad) {
			return fmt.Errorf("a branch name cannot hold %q", bad)
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return fmt.Errorf("no part of a branch name between slashes can start with a dot or end with .lock (%q)", part)
		}
	}
	return nil
}
