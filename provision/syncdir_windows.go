//go:build windows

package provision

// syncDir is a no-op: Windows cannot open a directory for flushing, and NTFS journals the rename.
func syncDir(string) {}
