package index

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sidecar"
)

// Mapper maps transcripts into events: the sidecar's transcript jobs (PROTOCOL.md, "Transcript jobs"), the one
// mapper of live sessions and history, and its session list (titles are the sidecar's to derive).
type Mapper interface {
	Open(ctx context.Context, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error)
	Next(ctx context.Context, req protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error)
	Close(ctx context.Context, job string) error
	ListSessions(ctx context.Context, cwd string) ([]protocol.SessionInfo, error)
	// Release ends what the mapper holds (a sidecar process).
	Release()
}

// SidecarMapper runs transcript jobs in one sidecar process of its own, started when first needed and again
// after it died.
type SidecarMapper struct {
	cfg sidecar.Config

	mu     sync.Mutex
	client *sidecar.Client
}

// NewSidecarMapper maps with the sidecar cfg names.
func NewSidecarMapper(cfg sidecar.Config) *SidecarMapper { return &SidecarMapper{cfg: cfg} }

func (m *SidecarMapper) call(ctx context.Context, typ protocol.RequestType, payload, out any) error {
	c, err := m.running(ctx)
	if err != nil {
		return err
	}
	return c.Call(ctx, typ, payload, out)
}

func (m *SidecarMapper) running(ctx context.Context) (*sidecar.Client, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.client != nil {
		select {
		case <-m.client.Done():
			m.client = nil
		default:
			return m.client, nil
		}
	}
	c, err := sidecar.Start(ctx, m.cfg)
	if err != nil {
		return nil, fmt.Errorf("start the sidecar that maps transcripts: %w", err)
	}
	go func() {
		for range c.Events() {
		}
	}()
	m.client = c
	return c, nil
}

// Open starts a job.
func (m *SidecarMapper) Open(ctx context.Context, req protocol.TranscriptOpenRequest) (protocol.TranscriptOpenReply, error) {
	var rep protocol.TranscriptOpenReply
	err := m.call(ctx, protocol.ReqTranscriptOpen, req, &rep)
	return rep, err
}

// Next reads the job's next page.
func (m *SidecarMapper) Next(ctx context.Context, req protocol.TranscriptNextRequest) (protocol.TranscriptNextReply, error) {
	var rep protocol.TranscriptNextReply
	err := m.call(ctx, protocol.ReqTranscriptNext, req, &rep)
	return rep, err
}

// Close ends a job; one the sidecar lost with its process needs no closing.
func (m *SidecarMapper) Close(ctx context.Context, job string) error {
	err := m.call(ctx, protocol.ReqTranscriptClose, protocol.TranscriptCloseRequest{Job: job}, nil)
	if errors.Is(err, sidecar.ErrExited) {
		return nil
	}
	return err
}

// ListSessions lists the stored sessions of one project folder (all of them when cwd is "").
func (m *SidecarMapper) ListSessions(ctx context.Context, cwd string) ([]protocol.SessionInfo, error) {
	var rep protocol.ListSessionsReply
	if err := m.call(ctx, protocol.ReqListSessions, protocol.ListSessionsRequest{Cwd: cwd}, &rep); err != nil {
		return nil, err
	}
	return rep.Sessions, nil
}

// Release stops the sidecar.
func (m *SidecarMapper) Release() {
	m.mu.Lock()
	c := m.client
	m.client = nil
	m.mu.Unlock()
	if c != nil {
		_ = c.Close(5 * time.Second)
	}
}
