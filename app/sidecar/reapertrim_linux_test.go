//go:build linux

package sidecar

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestReadOnlyFileMappingPicksOnlyUnwritableFiles(t *testing.T) {
	cases := []struct {
		line string
		want bool
	}{
		{"00400000-00ab2000 r-xp 00000000 fd:01 123 /opt/baton/baton", true},
		{"00ab2000-01246000 r--p 006b2000 fd:01 123 /opt/baton/baton", true},
		{"01246000-012be000 rw-p 00e46000 fd:01 123 /opt/baton/baton", false}, // written data: never dropped
		{"012be000-0330e000 rw-p 00000000 00:00 0", false},
		{"7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]", false},
		{"7ffd1000-7ffd3000 r--p 00000000 00:00 0 [vvar]", false},
		{"zz-00ab2000 r-xp 00000000 fd:01 123 /opt/baton/baton", false},
	}
	for _, c := range cases {
		start, end, ok := readOnlyFileMapping(c.line)
		if ok != c.want || (ok && end <= start) {
			t.Errorf("readOnlyFileMapping(%q) = %#x, %#x, %v; want ok %v", c.line, start, end, ok, c.want)
		}
	}
}

// The reaper's idle memory (run under -race too: the race runtime maps libraries with relocated read-only pages,
// which must survive): its read-only file pages are let go once it waits on the sidecar.
func TestDropFilePagesReleasesReadOnlyFilePages(t *testing.T) {
	before := readOnlyFileRSS(t)
	if before < 1<<20 {
		t.Skipf("only %d kB of read-only file pages resident: nothing to measure", before>>10)
	}
	dropFilePages()
	after := readOnlyFileRSS(t)
	if after > before/2 {
		t.Fatalf("read-only file pages resident: %d kB before, %d kB after dropping them", before>>10, after>>10)
	}
}

// readOnlyFileRSS sums the resident bytes of this process's unwritable file mappings (/proc/self/smaps).
func readOnlyFileRSS(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sum int64
	counting := false
	scan := bufio.NewScanner(f)
	for scan.Scan() {
		line := scan.Text()
		if isMappingHeader(line) {
			_, _, counting = readOnlyFileMapping(line)
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Rss:"); ok && counting {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			sum += kb << 10
		}
	}
	return sum
}
