package receipts_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/baton-console/baton/app/receipts"
	"github.com/stretchr/testify/require"
)

func TestReceiptsFoldAcceptedStartedEnded(t *testing.T) {
	dir := t.TempDir()
	s, err := receipts.Open(dir)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: "t1", Session: "s1", PromptSHA256: "abc"}))
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: "t2", Session: "s2"}))
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordStarted, Turn: "t1", ProviderMessage: "u1"}))
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordEnded, Turn: "t1", Outcome: receipts.OutcomeCompleted,
		DurationMs: 1200, CostUSD: 0.25, OutputTokens: 42}))
	got, err := s.Read("s1")
	require.NoError(t, err)
	require.Len(t, got, 1)
	r := got[0]
	require.Equal(t, "abc", r.PromptSHA256)
	require.Equal(t, "u1", r.ProviderMessage)
	require.True(t, r.Ended)
	require.Equal(t, receipts.OutcomeCompleted, r.Outcome)
	require.Equal(t, 0.25, r.CostUSD)
	require.Equal(t, 42, r.OutputTokens)
	all, err := s.Read("")
	require.NoError(t, err)
	require.Len(t, all, 2)
	require.False(t, all[1].Ended, "t2 runs in this live host: not host_exited")
}

func TestATornLastRecordIsSkipped(t *testing.T) {
	dir := t.TempDir()
	s, err := receipts.Open(dir)
	require.NoError(t, err)
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: "t1", Session: "s"}))
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordEnded, Turn: "t1", Outcome: receipts.OutcomeCompleted}))
	require.NoError(t, s.Close())
	path := filepath.Join(dir, receipts.FileName)
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	// A crash mid-write: half of a record, no newline.
	_, err = f.Write(whole[:len(whole)/3])
	require.NoError(t, err)
	require.NoError(t, f.Close())
	got, err := receipts.ReadFile(path, "s")
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, receipts.OutcomeCompleted, got[0].Outcome)

	// A corrupt line in the middle (bad checksum) is skipped too; what follows still reads.
	s, err = receipts.Open(dir)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, os.WriteFile(path, append(append([]byte{}, whole...), []byte("00000000 {\"type\":\"ended\",\"turn\":\"t1\",\"outcome\":\"failed\"}\n")...), 0o600))
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: "t3", Session: "s"}))
	got, err = s.Read("s")
	require.NoError(t, err)
	require.Len(t, got, 2)
	require.Equal(t, receipts.OutcomeCompleted, got[0].Outcome, "the corrupt record changed nothing")
}

// A host killed with SIGKILL mid-turn: its open receipts read host_exited; those of a live host do not.
func TestAnOpenTurnOfADeadHostReadsHostExited(t *testing.T) {
	if os.Getenv("RECEIPTS_CHILD") != "" {
		s, err := receipts.Open(os.Getenv("RECEIPTS_CHILD"))
		if err != nil {
			os.Exit(3)
		}
		_ = s.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: "dying", Session: "s"})
		_, _ = os.Stdout.WriteString("appended\n")
		time.Sleep(time.Minute) // killed before this ends
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestAnOpenTurnOfADeadHostReadsHostExited$")
	cmd.Env = append(os.Environ(), "RECEIPTS_CHILD="+dir)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	require.Contains(t, string(buf[:n]), "appended")
	got, err := receipts.ReadFile(filepath.Join(dir, receipts.FileName), "s")
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.False(t, got[0].Ended, "its host still runs")

	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	got, err = receipts.ReadFile(filepath.Join(dir, receipts.FileName), "s")
	require.NoError(t, err)
	require.True(t, got[0].Ended)
	require.Equal(t, receipts.OutcomeFailed, got[0].Outcome)
	require.Equal(t, receipts.HostExited, got[0].Code)
}

// A log torn before the barrier existed holds a record glued onto the fragment; the reader still finds it, and
// a fragment on its own line never swallows the record after it.
func TestTheReaderResynchronisesAfterATornFragment(t *testing.T) {
	dir := t.TempDir()
	s, err := receipts.Open(dir)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordAccepted, Turn: "t1", Session: "s"}))
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordEnded, Turn: "t1", Outcome: receipts.OutcomeCompleted}))
	path := filepath.Join(dir, receipts.FileName)
	whole, err := os.ReadFile(path)
	require.NoError(t, err)
	first := whole[:bytes.IndexByte(whole, '\n')+1]
	second := whole[len(first):]
	// accepted, then a fragment of a record with the ended record glued onto it.
	glued := append(append(append([]byte{}, first...), second[:len(second)/2]...), second...)
	require.NoError(t, os.WriteFile(path, glued, 0o600))
	got, err := s.Read("s")
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, receipts.OutcomeCompleted, got[0].Outcome, "the glued record was found")

	// A fragment another writer left at the end: the next record is written on a line of its own.
	require.NoError(t, os.WriteFile(path, append(append([]byte{}, first...), second[:len(second)/2]...), 0o600))
	require.NoError(t, s.Append(receipts.Record{Type: receipts.RecordEnded, Turn: "t1", Outcome: receipts.OutcomeCanceled}))
	got, err = s.Read("s")
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, receipts.OutcomeCanceled, got[0].Outcome)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, 3, bytes.Count(data, []byte("\n")), "accepted, the fragment, the new record")
}
