package gitwork

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// IncludeFile lists, in gitignore syntax, the ignored files of the main checkout to copy into each new worktree
// (.env and the like), as Claude Code reads it. Only files that match it and are ignored by git are copied.
const IncludeFile = ".worktreeinclude"

// copyIncludes copies src's ignored files that IncludeFile names into dst and returns their paths.
func copyIncludes(ctx context.Context, src, dst string) ([]string, error) {
	list := filepath.Join(src, IncludeFile)
	if _, err := os.Stat(list); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	g := gitAt(src)
	matched, err := g.run(ctx, "ls-files", "-z", "--others", "--ignored", "--exclude-from="+list)
	if err != nil || len(matched) == 0 {
		return nil, err
	}
	// check-ignore prints the ones git ignores; exit 1 means none is.
	ignored, err := g.input(ctx, bytes.NewReader(matched), "check-ignore", "-z", "--stdin")
	if exitCode(err) == 1 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	paths := splitZ(ignored)
	for _, p := range paths {
		if err := copyFile(filepath.Join(src, p), filepath.Join(dst, p)); err != nil {
			return nil, fmt.Errorf("copy %s (listed in %s) into the worktree: %w", p, IncludeFile, err)
		}
	}
	return paths, nil
}

// copyFile copies a regular file with its mode, or recreates a symlink.
func copyFile(from, to string) error {
	fi, err := os.Lstat(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		if err != nil {
			return err
		}
		return os.Symlink(target, to)
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
