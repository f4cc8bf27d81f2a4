// Package receipts keeps a durable receipt for every turn Baton runs: when it was accepted and how it ended
// (outcome, time, cost, tokens, the cancel disposition), so history can say what became of a turn even after
// Baton itself was killed in the middle of it.
//
// Format: one append-only file, receipts.log, in Baton's data dir. Each record is one line,
// "<crc32c of the JSON, 8 hex digits> <JSON>\n", written with a single write and fsync'd before Append returns.
// Why this and not SQLite: the host appends a few records per turn and reads them rarely; a checksummed log needs no
// dependency, no schema migration and no cgo, is readable with a text editor, and a crash or a full disk can only
// ever tear the last line, which the reader detects (no newline, or a checksum that does not match) and skips.
// Before each record the writer looks at the file's last byte: when it is not a newline (a torn fragment, ours or
// another process's) the record starts with one, so the fragment stays a line of its own and nothing valid is
// glued onto it. A barrier, not a truncation: another Baton may be appending, and cutting the file could cut its
// record. Several Baton processes may share the file: O_APPEND keeps whole lines, and a receipt names the host
// instance that wrote it.
package receipts

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// FileName is the log's name inside the data dir.
const FileName = "receipts.log"

// HostExited is the failure code a turn reads when the Baton process that ran it died before it ended.
const HostExited = "host_exited"

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Record is one line of the log: an accepted turn, its provider message once known, or its end.
type Record struct {
	Type RecordType `json:"type"`
	Turn string     `json:"turn"`
	// Accepted
	Session      string    `json:"session,omitempty"`
	PromptSHA256 string    `json:"promptSha256,omitempty"`
	Host         string    `json:"host,omitempty"` // the writing host instance (its lock says whether it still runs)
	Time         time.Time `json:"time"`
	// Started
	ProviderMessage string `json:"providerMessage,omitempty"`
	// Ended
	Outcome      Outcome `json:"outcome,omitempty"`
	Code         string  `json:"code,omitempty"`
	DurationMs   int64   `json:"durationMs,omitempty"`
	CostUSD      float64 `json:"costUsd,omitempty"`
	OutputTokens int     `json:"outputTokens,omitempty"`
	Disposition  string  `json:"disposition,omitempty"`
	Forced       bool    `json:"forced,omitempty"`
}

// RecordType says what a record adds to its turn's receipt.
type RecordType string

const (
	RecordAccepted RecordType = "accepted"
	RecordStarted  RecordType = "started"
	RecordEnded    RecordType = "ended"
)

// Outcome is how a turn ended.
type Outcome string

const (
	OutcomeCompleted Outcome = "completed"
	OutcomeFailed    Outcome = "failed"
	OutcomeCanceled  Outcome = "canceled"
)

// Receipt is everything the log knows about one turn.
type Receipt struct {
	Turn            string
	Session         string
	PromptSHA256    string
	ProviderMessage string
	AcceptedAt      time.Time
	// Ended is false while the turn runs (in a live host); a turn whose host died reads Outcome failed, Code
	// host_exited.
	Ended        bool
	Outcome      Outcome
	Code         string
	EndedAt      time.Time
	DurationMs   int64
	CostUSD      float64
	OutputTokens int
	Disposition  string
	Forced       bool
	host         string
}

// Store appends to and reads the log. One per host process.
type Store struct {
	path     string
	instance string
	lock     *os.File // held while this host runs: a receipt of ours is never read as host_exited
	mu       sync.Mutex
	file     *os.File
}

// Open opens (creating) the log in dir and registers this host instance.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "hosts"), 0o700); err != nil {
		return nil, fmt.Errorf("create the receipts folder: %w", err)
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	instance := hex.EncodeToString(id[:])
	lock, err := lockInstance(filepath.Join(dir, "hosts", instance+".lock"))
	if err != nil {
		return nil, fmt.Errorf("register this Baton process for its turn receipts: %w", err)
	}
	// Read as well as append: Append reads the last byte to tell a torn tail.
	f, err := os.OpenFile(filepath.Join(dir, FileName), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		unlockInstance(lock)
		return nil, fmt.Errorf("open the turn receipts: %w", err)
	}
	return &Store{path: f.Name(), instance: instance, lock: lock, file: f}, nil
}

// Close releases the log and this host's registration.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.file.Close()
	unlockInstance(s.lock)
	_ = os.Remove(s.lock.Name())
	return err
}

// Append writes one record and fsyncs it; when it returns nil the record survives a crash.
func (s *Store) Append(r Record) error {
	if r.Type == RecordAccepted {
		r.Host = s.instance
	}
	if r.Time.IsZero() {
		r.Time = time.Now().UTC()
	}
	body, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode a turn receipt: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var line []byte
	if s.tornTail() {
		line = append(line, '\n')
	}
	line = fmt.Appendf(line, "%08x %s\n", crc32.Checksum(body, crcTable), body)
	if _, err := s.file.Write(line); err != nil {
		// A short write (a full disk) leaves a fragment; the next Append sees it and starts with a newline.
		return fmt.Errorf("write a turn receipt: %w", err)
	}
	if err := s.file.Sync(); err != nil {
		return fmt.Errorf("sync the turn receipts to disk: %w", err)
	}
	return nil
}

// tornTail reports whether the log ends inside a line: a fragment a crash or a full disk left. Unsure (the file
// cannot be read) counts as torn; a spare newline costs an empty line, which the reader skips.
func (s *Store) tornTail() bool {
	fi, err := s.file.Stat()
	if err != nil {
		return true
	}
	if fi.Size() == 0 {
		return false
	}
	var last [1]byte
	if _, err := s.file.ReadAt(last[:], fi.Size()-1); err != nil {
		return true
	}
	return last[0] != '\n'
}

// Read returns every receipt of session (all sessions when empty), in the order their turns were accepted.
func (s *Store) Read(session string) ([]Receipt, error) {
	return ReadFile(s.path, session)
}

// ReadFile reads a log. Torn or corrupt lines (a crash mid-write) are skipped; they never stop the reading.
func ReadFile(path, session string) ([]Receipt, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open the turn receipts: %w", err)
	}
	defer f.Close()
	byTurn := map[string]*Receipt{}
	var order []string
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break // a last line without its newline is torn: skipped
		}
		if err != nil {
			return nil, fmt.Errorf("read the turn receipts: %w", err)
		}
		rec, ok := decodeLine(line)
		if !ok {
			// A log written before the barrier existed may hold a record glued onto a torn fragment.
			if rec, ok = resync(line); !ok {
				continue
			}
		}
		rc := byTurn[rec.Turn]
		if rc == nil {
			if rec.Type != RecordAccepted {
				continue
			}
			rc = &Receipt{Turn: rec.Turn}
			byTurn[rec.Turn] = rc
			order = append(order, rec.Turn)
		}
		apply(rc, rec)
	}
	hosts := map[string]bool{}
	out := make([]Receipt, 0, len(order))
	for _, turn := range order {
		rc := byTurn[turn]
		if session != "" && rc.Session != session {
			continue
		}
		if !rc.Ended {
			alive, seen := hosts[rc.host]
			if !seen {
				alive = instanceRuns(filepath.Join(filepath.Dir(path), "hosts", rc.host+".lock"))
				hosts[rc.host] = alive
			}
			if !alive {
				rc.Ended, rc.Outcome, rc.Code = true, OutcomeFailed, HostExited
			}
		}
		out = append(out, *rc)
	}
	return out, nil
}

func decodeLine(line []byte) (Record, bool) {
	var rec Record
	line = bytes.TrimSuffix(line, []byte("\n"))
	sum, body, found := bytes.Cut(line, []byte(" "))
	if !found || len(sum) != 8 {
		return rec, false
	}
	var want uint32
	if _, err := fmt.Sscanf(string(sum), "%08x", &want); err != nil || crc32.Checksum(body, crcTable) != want {
		return rec, false
	}
	if err := json.Unmarshal(body, &rec); err != nil || rec.Turn == "" {
		return rec, false
	}
	return rec, true
}

// resync finds a whole record at the end of a line that does not decode: one appended after a torn fragment, with
// no newline between them. Only a suffix whose checksum matches is taken, so a fragment never yields a record.
func resync(line []byte) (Record, bool) {
	for i := 1; i+9 < len(line); i++ {
		if line[i+8] == ' ' && isHex(line[i:i+8]) {
			if rec, ok := decodeLine(line[i:]); ok {
				return rec, true
			}
		}
	}
	return Record{}, false
}

func isHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func apply(rc *Receipt, rec Record) {
	switch rec.Type {
	case RecordAccepted:
		rc.Session, rc.PromptSHA256, rc.AcceptedAt, rc.host = rec.Session, rec.PromptSHA256, rec.Time, rec.Host
	case RecordStarted:
		rc.ProviderMessage = rec.ProviderMessage
	case RecordEnded:
		rc.Ended, rc.Outcome, rc.Code, rc.EndedAt = true, rec.Outcome, rec.Code, rec.Time
		rc.DurationMs, rc.CostUSD, rc.OutputTokens = rec.DurationMs, rec.CostUSD, rec.OutputTokens
		rc.Disposition, rc.Forced = rec.Disposition, rec.Forced
	}
}
