//go:build linux

package sidecar

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// dropFilePages lets the kernel unmap the reaper's read-only file pages (its executable's, libc's). The reaper is
// the whole host binary re-executed, and starting it faults in megabytes of code and read-only data (Go's
// start-up, every package's init) that it never touches again while it waits on the sidecar: they were about a
// tenth of an idle session's memory. Only file mappings without write permission are dropped, so nothing written
// is lost: a dropped page is read back from the page cache (the host maps the same files) if it is touched again.
func dropFilePages() {
	smaps, err := os.Open("/proc/self/smaps")
	if err != nil {
		return
	}
	defer smaps.Close()
	var start, end uintptr
	candidate := false
	scan := bufio.NewScanner(smaps)
	for scan.Scan() {
		line := scan.Text()
		if isMappingHeader(line) {
			start, end, candidate = readOnlyFileMapping(line)
			continue
		}
		// A read-only mapping can still hold pages written before it was made read-only (relocations, RELRO):
		// dropping those would lose them, so only a mapping with no such (anonymous) page is dropped.
		if rest, ok := strings.CutPrefix(line, "Anonymous:"); ok && candidate {
			candidate = false
			if strings.TrimSpace(rest) == "0 kB" {
				_, _, _ = unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_DONTNEED)
			}
		}
	}
}

// isMappingHeader tells a mapping's line in /proc/self/smaps ("start-end perms ...") from its "Key: value" lines.
func isMappingHeader(line string) bool {
	first, _, _ := strings.Cut(line, " ")
	return strings.Contains(first, "-") && !strings.HasSuffix(first, ":")
}

// readOnlyFileMapping reads one mapping line of /proc/self/smaps: the range of a file mapping that cannot be
// written (not the kernel's [vdso] and the like, which are named in brackets).
func readOnlyFileMapping(line string) (start, end uintptr, ok bool) {
	fields := strings.Fields(line)
	if len(fields) < 6 || !strings.HasPrefix(fields[5], "/") || strings.Contains(fields[1], "w") {
		return 0, 0, false
	}
	from, to, found := strings.Cut(fields[0], "-")
	if !found {
		return 0, 0, false
	}
	s, err1 := strconv.ParseUint(from, 16, 64)
	e, err2 := strconv.ParseUint(to, 16, 64)
	if err1 != nil || err2 != nil || e <= s {
		return 0, 0, false
	}
	return uintptr(s), uintptr(e), true
}
