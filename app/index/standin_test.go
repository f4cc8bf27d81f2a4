package index

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/baton-console/baton/app/protocol"
)

// standInMapper stands in for the sidecar's transcript jobs, which are being built on another branch (on main the
// sidecar answers bad_request to them): it turns each line of a session's transcript and of its subagents' into an
// `unknown` event carrying the line, with the line's uuid. It resumes from an offset and restarts when the file no
// longer holds what the state says was there. The index code under test is the real one, on real SQLite.
type standInMapper struct {
	version  string
	projects string

	mu     sync.Mutex
	jobs   map[string]*standInJob
	opens  []protocol.TranscriptOpenRequest
	lists  int
	nextID int
	// gate, when set, is called before each Next page is answered (a test holds a job mid-way with it).
	gate func(session string, page int)
}

type standInJob struct {
	session string
	items   []protocol.TranscriptItem
	pos     int
	page    int
	offset  int
	lines   int
}

// standInState is the stand-in's resume state: how many lines precede the offset, and the line just before it.
type standInState struct {
	Lines int    `json:"lines"`
	Last  string `json:"last"`
}

func newStandIn(version, projects string) *standInMapper {
	return &standInMapper{version: version, projects: projects, jobs: map[string]*standInJob{}}
}

func (m *standInMapper) Open(_ context.Context, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	data, err := os.ReadFile(req.File)
	if err != nil {
		return protocol.TranscriptOpenReply{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.opens = append(m.opens, req)
	j := &standInJob{session: req.Session}
	from, restarted := 0, false
	if req.Resume != nil {
		var st standInState
		_ = json.Unmarshal(req.Resume.State, &st)
		off := req.Resume.Offset
		prev := lastLine(data[:min(off, len(data))])
		if off <= len(data) && prev == st.Last {
			from, j.lines = off, st.Lines
		} else {
			restarted = true
		}
	}
	j.items = linesToItems(req.Session, data[from:], m.version)
	j.offset = from + completeLen(data[from:])
	if from == 0 {
		j.items = append(j.items, m.subagentItems(req)...)
	}
	j.lines += len(j.items)
	m.nextID++
	id := fmt.Sprintf("job-%d", m.nextID)
	m.jobs[id] = j
	return protocol.TranscriptOpenReply{Job: id, BytesTotal: len(data), Restarted: restarted, Mapper: m.version}, nil
}

func (m *standInMapper) subagentItems(req protocol.TranscriptOpenRequest) []protocol.TranscriptItem {
	subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(req.File, ".jsonl"), "subagents", "*.jsonl"))
	var out []protocol.TranscriptItem
	for _, s := range subs {
		data, _ := os.ReadFile(s)
		out = append(out, linesToItems(req.Session, data, m.version)...)
	}
	return out
}

func (m *standInMapper) Next(_ context.Context, req protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error) {
	m.mu.Lock()
	j := m.jobs[req.Job]
	gate := m.gate
	m.mu.Unlock()
	if j == nil {
		return protocol.TranscriptNextReply{}, errors.New("no such job")
	}
	if gate != nil {
		gate(j.session, j.page)
	}
	j.page++
	end := min(len(j.items), j.pos+req.MaxEvents)
	rep := protocol.TranscriptNextReply{Items: j.items[j.pos:end], Done: end == len(j.items), BytesRead: j.offset}
	j.pos = end
	if rep.Done {
		data, _ := os.ReadFile(m.fileOf(req.Job))
		state, _ := json.Marshal(standInState{Lines: j.lines, Last: lastLine(data[:min(j.offset, len(data))])})
		rep.Resume = &protocol.TranscriptResume{Offset: j.offset, State: state, Items: len(j.items)}
	}
	return rep, nil
}

func (m *standInMapper) fileOf(job string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.opens) - 1; i >= 0; i-- {
		if fmt.Sprintf("job-%d", i+1) == job {
			return m.opens[i].File
		}
	}
	return ""
}

func (m *standInMapper) Close(_ context.Context, job string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.jobs, job)
	return nil
}

// ListSessions lists every session file under the stand-in's projects folder (only those whose first line's
// "cwd" is cwd, when given), titled by the first line's "title".
func (m *standInMapper) ListSessions(_ context.Context, cwd string) ([]protocol.SessionInfo, error) {
	m.mu.Lock()
	m.lists++
	m.mu.Unlock()
	var out []protocol.SessionInfo
	files, _ := filepath.Glob(filepath.Join(m.projects, "*", "*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var head struct{ Title, Cwd string }
		first, _, _ := bytes.Cut(data, []byte("\n"))
		_ = json.Unmarshal(first, &head)
		if cwd != "" && head.Cwd != cwd {
			continue
		}
		st, _ := os.Stat(f)
		out = append(out, protocol.SessionInfo{Session: strings.TrimSuffix(filepath.Base(f), ".jsonl"), Title: head.Title,
			Cwd: head.Cwd, LastModified: int(st.ModTime().UnixMilli())})
	}
	return out, nil
}

func (m *standInMapper) Release() {}

func (m *standInMapper) openRequests() []protocol.TranscriptOpenRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]protocol.TranscriptOpenRequest(nil), m.opens...)
}

func linesToItems(session string, data []byte, version string) []protocol.TranscriptItem {
	var out []protocol.TranscriptItem
	sc := bufio.NewScanner(bytes.NewReader(data[:completeLen(data)]))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			UUID string `json:"uuid"`
		}
		_ = json.Unmarshal(sc.Bytes(), &line)
		raw, _ := json.Marshal(map[string]string{"line": sc.Text(), "mapper": version})
		ev, _ := json.Marshal(struct {
			Kind    string          `json:"kind"`
			Session string          `json:"session"`
			Time    string          `json:"time"`
			Raw     json.RawMessage `json:"raw"`
		}{"unknown", session, "2026-12-01T00:00:00Z", raw})
		out = append(out, protocol.TranscriptItem{UUID: line.UUID, Event: ev})
	}
	return out
}

// completeLen is the length of data up to its last newline (a torn last line is read when it is whole).
func completeLen(data []byte) int { return bytes.LastIndexByte(data, '\n') + 1 }

func lastLine(data []byte) string {
	data = data[:completeLen(data)]
	data = bytes.TrimSuffix(data, []byte("\n"))
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		return string(data[i+1:])
	}
	return string(data)
}
