//go:build linux

package receipts_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/baton-console/baton/app/receipts"
	"github.com/stretchr/testify/require"
)

// fullDiskReport is what the child, which sees the tiny tmpfs, tells the test.
type fullDiskReport struct {
	Skip     string             `json:"skip,omitempty"`
	Fault    string             `json:"fault,omitempty"`
	Fragment bool               `json:"fragment"` // the failed write left a torn line behind
	Receipts []receipts.Receipt `json:"receipts"`
}

// A real full disk (a 64 KiB tmpfs in a private mount namespace) tears a record mid-line; once space is back, and
// after a restart, the turn's end and the next turn's receipt both read whole.
func TestARecordTornByAFullDiskLosesNothingAfterIt(t *testing.T) {
	if dir := os.Getenv("RECEIPTS_FULLDISK"); dir != "" {
		report := fillAndTear(dir)
		_ = json.NewEncoder(os.Stdout).Encode(report)
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestARecordTornByAFullDiskLosesNothingAfterIt$")
	cmd.Env = append(os.Environ(), "RECEIPTS_FULLDISK="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.Output()
	var startErr *exec.Error
	if errors.As(err, &startErr) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) {
		t.Skipf("user namespaces are not available here: %v", err)
	}
	require.NoError(t, err, "child: %s", out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var r fullDiskReport
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &r), "child: %s", out)
	if r.Skip != "" {
		t.Skip(r.Skip)
	}
	require.Empty(t, r.Fault)
	require.True(t, r.Fragment, "the full disk should have torn a record")
	require.Len(t, r.Receipts, 2)
	for i, turn := range []string{"t1", "t2"} {
		got := r.Receipts[i]
		require.Equal(t, turn, got.Turn)
		require.True(t, got.Ended, "%s: its end was written after the torn record", turn)
		require.Equal(t, receipts.OutcomeCompleted, got.Outcome, turn)
		require.Equal(t, 7, got.OutputTokens, turn)
	}
}

// fillAndTear runs in the child: it fills the tmpfs, appends until a record is torn, frees the space, restarts
// the store and finishes both turns.
func fillAndTear(dir string) fullDiskReport {
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fullDiskReport{Skip: "cannot make mounts private: " + err.Error()}
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		return fullDiskReport{Skip: "this system refuses tmpfs mounts in a user namespace: " + err.Error()}
	}
	fault := func(step string, err error) fullDiskReport { return fullDiskReport{Fault: step + ": " + err.Error()} }
	s, err := receipts.Open(dir)
	if err != nil {
		return fault("open", err)
	}
	if err := s.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: "t1", Session: "s"}); err != nil {
		return fault("accept t1", err)
	}
	filler := filepath.Join(dir, "filler")
	if err := fillDisk(filler); err != nil {
		return fault("fill the disk", err)
	}
	// The log's last page has room for a few records; the one that crosses into the next page is torn.
	var appendErr error
	for i := 0; i < 1000 && appendErr == nil; i++ {
		appendErr = s.Append(receipts.Record{Type: receipts.RecordStarted, Turn: "t1", ProviderMessage: "u1"})
	}
	if !errors.Is(appendErr, syscall.ENOSPC) {
		return fault("tear a record", errors.New("no append failed with ENOSPC"))
	}
	data, err := os.ReadFile(filepath.Join(dir, receipts.FileName))
	if err != nil {
		return fault("read the log", err)
	}
	report := fullDiskReport{Fragment: len(data) > 0 && data[len(data)-1] != '\n'}
	if err := os.Remove(filler); err != nil {
		return fault("free the disk", err)
	}
	_ = s.Close()
	if s, err = receipts.Open(dir); err != nil {
		return fault("reopen", err)
	}
	defer s.Close()
	for _, rec := range []receipts.Record{
		{Type: receipts.RecordEnded, Turn: "t1", Outcome: receipts.OutcomeCompleted, OutputTokens: 7},
		{Type: receipts.RecordAccepted, Turn: "t2", Session: "s"},
		{Type: receipts.RecordEnded, Turn: "t2", Outcome: receipts.OutcomeCompleted, OutputTokens: 7},
	} {
		if err := s.Append(rec); err != nil {
			return fault("append after the disk was freed", err)
		}
	}
	if report.Receipts, err = s.Read("s"); err != nil {
		return fault("read", err)
	}
	return report
}

// fillDisk writes path until the file system has no byte left.
func fillDisk(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	block := make([]byte, 4096)
	for _, size := range []int{4096, 1} {
		for {
			if _, err := f.Write(block[:size]); err != nil {
				if errors.Is(err, syscall.ENOSPC) {
					break
				}
				return err
			}
		}
	}
	return nil
}
