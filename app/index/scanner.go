package index

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/baton-console/baton/app/protocol"
)

// headBytes is how much of a file's start its head hash covers: a rewritten transcript differs there, an appended
// one does not.
const headBytes = 4096

// fileStat is one transcript file as found on disk.
type fileStat struct {
	path  string
	size  int64
	mtime int64 // UnixNano
}

// sessionFiles are a session's transcript and its subagents' (2.0.x agent-*.jsonl beside it naming the session,
// 2.1.x <session>/subagents/agent-*.jsonl); a change to any of them re-indexes the session.
type sessionFiles struct {
	session string
	project string // the project folder's name under projects
	main    fileStat
	subs    []fileStat
}

func (f *sessionFiles) all() []fileStat { return append([]fileStat{f.main}, f.subs...) }

func (f *sessionFiles) bytes() int64 {
	var n int64
	for _, s := range f.all() {
		n += s.size
	}
	return n
}

func statFile(path string) (fileStat, error) {
	st, err := os.Stat(path)
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{path: path, size: st.Size(), mtime: st.ModTime().UnixNano()}, nil
}

// scanAll finds every session under projectsDir (none when it does not exist).
func scanAll(projectsDir string) (map[string]*sessionFiles, error) {
	out := map[string]*sessionFiles{}
	projects, err := os.ReadDir(projectsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read Claude Code's projects folder: %w", err)
	}
	var agents []fileStat
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		found, beside := scanProject(projectsDir, p.Name())
		for id, f := range found {
			out[id] = f
		}
		agents = append(agents, beside...)
	}
	for _, a := range agents {
		if f := out[agentSession(a.path)]; f != nil {
			f.subs = append(f.subs, a)
		}
	}
	return out, nil
}

// scanProject finds one project folder's sessions (with their subagents folders), and the agent files beside them.
func scanProject(projectsDir, project string) (map[string]*sessionFiles, []fileStat) {
	dir := filepath.Join(projectsDir, project)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	out := map[string]*sessionFiles{}
	// A session has a subagents folder only where the project holds something of its name that is no file: the
	// look (a stat that fails) is skipped for the others, most sessions of a thousand.
	folders := map[string]bool{}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			folders[e.Name()] = true
		}
	}
	var agents []fileStat
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		st, err := statFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		switch {
		case protocol.ValidSessionID(id):
			f := &sessionFiles{session: id, project: project, main: st}
			if folders[id] {
				f.subs = subagentFiles(dir, id)
			}
			out[id] = f
		case strings.HasPrefix(id, "agent-"):
			agents = append(agents, st)
		}
	}
	return out, agents
}

// scanSession finds one session's files, in the project known for it or else in any; nil when it has none.
func scanSession(projectsDir, session, project string) *sessionFiles {
	if project != "" {
		if st, err := statFile(filepath.Join(projectsDir, project, session+".jsonl")); err == nil {
			return withSubagents(&sessionFiles{session: session, project: project, main: st}, filepath.Join(projectsDir, project))
		}
	}
	matches, _ := filepath.Glob(filepath.Join(projectsDir, "*", session+".jsonl"))
	for _, m := range matches {
		if st, err := statFile(m); err == nil {
			dir := filepath.Dir(m)
			return withSubagents(&sessionFiles{session: session, project: filepath.Base(dir), main: st}, dir)
		}
	}
	return nil
}

// withSubagents adds a session's subagent files in both layouts.
func withSubagents(f *sessionFiles, projectDir string) *sessionFiles {
	f.subs = subagentFiles(projectDir, f.session)
	beside, _ := filepath.Glob(filepath.Join(projectDir, "agent-*.jsonl"))
	for _, path := range beside {
		if agentSession(path) != f.session {
			continue
		}
		if st, err := statFile(path); err == nil {
			f.subs = append(f.subs, st)
		}
	}
	return f
}

func subagentFiles(projectDir, session string) []fileStat {
	matches, _ := filepath.Glob(filepath.Join(projectDir, session, "subagents", "*.jsonl"))
	var out []fileStat
	for _, m := range matches {
		if st, err := statFile(m); err == nil {
			out = append(out, st)
		}
	}
	return out
}

// agentSession reads which session a 2.0.x agent file beside the sessions belongs to: its first line's sessionId.
func agentSession(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	line, err := bufio.NewReaderSize(io.LimitReader(f, 1<<20), 64<<10).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return ""
	}
	var head struct {
		SessionID string `json:"sessionId"`
	}
	if json.Unmarshal(line, &head) != nil {
		return ""
	}
	return head.SessionID
}

// headHash hashes the first min(size, headBytes) bytes of a file: a file that only grew past size hashes the same.
func headHash(path string, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, min(size, headBytes))); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}
