package gitwork

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// ErrStaleHunk says the hunk to revert is no longer in the file's diff (the file changed since it was read).
var ErrStaleHunk = errors.New("that hunk is no longer in the file's diff; read the diff again")

// RevertFile puts the file back as it is in the base (an added file is removed; a renamed one is moved back).
// Both the worktree and its index are set, so the file leaves the changes list.
func RevertFile(ctx context.Context, t Target, c FileChange) error {
	root, err := toplevel(ctx, t.Dir)
	if err != nil {
		return err
	}
	g := gitAt(root)
	base, err := baseCommit(ctx, g, t.Base)
	if err != nil {
		return err
	}
	paths := []string{c.Path}
	if c.OldPath != "" {
		paths = append(paths, c.OldPath)
	}
	for _, p := range paths {
		if err := revertPath(ctx, g, root, base, p); err != nil {
			return fmt.Errorf("revert %s: %w", p, err)
		}
	}
	return nil
}

func revertPath(ctx context.Context, g git, root, base, path string) error {
	inBase, err := g.ok(ctx, "cat-file", "-e", base+":"+path)
	if err != nil {
		return err
	}
	if inBase {
		_, err := g.run(ctx, "restore", "--source="+base, "--staged", "--worktree", "--", path)
		return err
	}
	if _, err := g.run(ctx, "rm", "-q", "-f", "--cached", "--ignore-unmatch", "--", path); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(path))); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// RevertHunk takes one hunk of the file's diff back out of the file (`git apply -R` of that hunk alone), leaving
// the rest of the file's changes. hunk is as Diff returned it; when the diff no longer has it, ErrStaleHunk.
func RevertHunk(ctx context.Context, t Target, r DiffRequest, hunk Hunk) error {
	v, cleanup, err := open(ctx, t)
	if err != nil {
		return err
	}
	defer cleanup()
	d, _, err := v.diff(ctx, DiffRequest{Path: r.Path, OldPath: r.OldPath, MaxLines: 1 << 30})
	if err != nil {
		return err
	}
	if d.Binary {
		return fmt.Errorf("%s is binary: revert the whole file", r.Path)
	}
	var found *Hunk
	for i := range d.Hunks {
		if reflect.DeepEqual(d.Hunks[i], hunk) {
			found = &d.Hunks[i]
			break
		}
	}
	if found == nil {
		return ErrStaleHunk
	}
	if _, err := os.Lstat(filepath.Join(v.root, filepath.FromSlash(r.Path))); err != nil {
		return fmt.Errorf("%s is deleted: revert the whole file", r.Path)
	}
	// The patch names only the file as it is now: reversing it edits that file and nothing else (a rename's
	// or a new file's header would otherwise move or delete it).
	if _, err := v.g.input(ctx, strings.NewReader(hunkPatch(r.Path, *found)), "apply", "-R", "--whitespace=nowarn", "-"); err != nil {
		return fmt.Errorf("revert the hunk at line %d of %s: %w", hunk.NewStart, r.Path, err)
	}
	return nil
}

// hunkPatch is a one-hunk patch of path (which exists on both sides).
func hunkPatch(path string, h Hunk) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", path, path, path, path)
	fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
	for _, l := range h.Lines {
		switch l.Kind {
		case Add:
			b.WriteByte('+')
		case Delete:
			b.WriteByte('-')
		case Context:
			b.WriteByte(' ')
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
		if l.NoNewline {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
	return b.String()
}
