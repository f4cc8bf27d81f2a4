//go:build unix

package main

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/klauspost/compress/s2"

	"github.com/baton-console/baton/app/protocol"
)

// replayMapper replays the items another index holds (one the serve part built with the real sidecar), so the
// store part measures the host's whole cost of real events (items, search text, usage) without the sidecar's
// CPU beside it: `-store-mapper replay:<index.db>`.
type replayMapper struct {
	db *sql.DB

	mu   sync.Mutex
	jobs map[string]*replayJob
	n    int
}

type replayJob struct {
	items []protocol.TranscriptItem
	next  int
}

func newReplayMapper(path string) (*replayMapper, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return nil, err
	}
	return &replayMapper{db: db, jobs: map[string]*replayJob{}}, nil
}

func (m *replayMapper) Open(ctx context.Context, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	rows, err := m.db.QueryContext(ctx, `SELECT uuids, ends, events FROM runs WHERE session = ?
		AND gen = (SELECT gen FROM sessions WHERE session = ?) ORDER BY seq`, req.Session, req.Session)
	if err != nil {
		return protocol.TranscriptOpenReply{}, err
	}
	defer func() { _ = rows.Close() }()
	j := &replayJob{}
	for rows.Next() {
		var uuids string
		var ends, packed []byte
		if err := rows.Scan(&uuids, &ends, &packed); err != nil {
			return protocol.TranscriptOpenReply{}, err
		}
		events, err := s2.Decode(nil, packed)
		if err != nil {
			return protocol.TranscriptOpenReply{}, err
		}
		j.items = append(j.items, runItems(uuids, ends, events)...)
	}
	if len(j.items) == 0 {
		return protocol.TranscriptOpenReply{}, fmt.Errorf("no items of %s to replay", req.Session)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	id := fmt.Sprintf("job-%d", m.n)
	m.jobs[id] = j
	return protocol.TranscriptOpenReply{Job: id, Mapper: "bench-replay-1"}, rows.Err()
}

func (m *replayMapper) Next(_ context.Context, req protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error) {
	m.mu.Lock()
	j := m.jobs[req.Job]
	m.mu.Unlock()
	if j == nil {
		return protocol.TranscriptNextReply{}, errors.New("no such job")
	}
	end := min(len(j.items), j.next+req.MaxEvents)
	rep := protocol.TranscriptNextReply{Items: j.items[j.next:end], Done: end == len(j.items)}
	j.next = end
	return rep, nil
}

func (m *replayMapper) Close(_ context.Context, job string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.jobs, job)
	return nil
}

func (m *replayMapper) ListSessions(context.Context, string) ([]protocol.SessionInfo, error) {
	return nil, nil
}

func (m *replayMapper) Release() { _ = m.db.Close() }

// runItems splits one row of the index's runs (app/index/runs.go: the events one after another, s2-compressed,
// where each ends as a little-endian uint32, the uuids a line each) into its items.
func runItems(uuids string, ends, events []byte) []protocol.TranscriptItem {
	ids := strings.Split(strings.TrimSuffix(uuids, "\n"), "\n")
	items := make([]protocol.TranscriptItem, 0, len(ids))
	start := 0
	for i, id := range ids {
		end := int(binary.LittleEndian.Uint32(ends[4*i:]))
		items = append(items, protocol.TranscriptItem{UUID: id, Event: events[start:end:end]})
		start = end
	}
	return items
}
