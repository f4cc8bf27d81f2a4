package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/auth"
	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/index"
	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
	"github.com/baton-console/baton/app/sidecar"
	"github.com/baton-console/baton/provision/platform"
)

// indexUse is what a host does with the index.
type indexUse int

const (
	indexRead  indexUse = iota // a headless command: it indexes only the session it reads
	indexBuild                 // the console's hosts: every transcript, in the background
	indexList                  // `baton sessions`: its sidecar lists, and maps nothing
)

// indexStep opens Baton's index of the transcripts (index.db in the data dir) once sessions exist (it reads their
// receipts), and has the sessions read history and the session list from it; closing it first hands those reads
// back to the sidecar. Without a data dir there is no index and history is read as before.
func indexStep(use indexUse) hostStep {
	build := use == indexBuild
	return hostStep{name: "the session index",
		open: func(ctx context.Context, h *Host) error {
			if h.state == nil { // a headless command: the index's progress only (its stderr line)
				h.state = console.NewHostState()
			}
			ix, err := openIndex(ctx, h, use)
			if err != nil {
				h.log.Warn().Err(err).Msg("the session index is not kept; history is read from the transcripts")
				if dir, dirErr := platform.DataDir(); dirErr == nil {
					h.state.SetIndex(indexOpenFailed(err, dir))
				}
				return nil
			}
			h.index = ix
			h.sessions.UseStored(indexedSessions{ix: ix})
			if build {
				ix.Build()
			}
			return nil
		},
		close: func(h *Host) {
			if h.index == nil {
				return
			}
			h.sessions.UseStored(nil)
			if err := h.index.Close(); err != nil {
				h.log.Warn().Err(err).Msg("close the session index")
			}
			h.indexMapper.Release()
		},
	}
}

func openIndex(ctx context.Context, h *Host, use indexUse) (*index.Index, error) {
	dir, err := platform.DataDir()
	if err != nil {
		return nil, err
	}
	paths, err := auth.ResolvePaths(os.Environ())
	if err != nil {
		return nil, err
	}
	h.indexMapper = index.NewSidecarMapper(sidecar.Config{Path: sidecarPath(), Runtime: mapperRuntime(use), Logger: h.log})
	h.indexMapper.LendWith(h.sessions.LendSidecar) // a turn's appends are mapped by its own sidecar
	log, state := h.log, h.state
	ix, err := index.Open(ctx, index.Options{Dir: dir, ProjectsDir: filepath.Join(paths.ConfigDir, "projects"),
		Mapper: h.indexMapper, Receipts: h.sessions.ReceiptEnds, Version: Version, Logger: h.log, SkipWholeCheck: use != indexBuild,
		OnProgress: func(p index.Progress) {
			if state != nil {
				state.SetIndex(indexState(p, filepath.Join(dir, index.FileName)))
			}
			if !p.Indexing && p.FilesTotal > 0 {
				log.Info().Int("files", p.FilesDone).Int64("bytes", p.BytesDone).Msg("session index up to date")
			}
		}})
	if err != nil {
		h.indexMapper.Release()
		return nil, fmt.Errorf("open the session index: %w", err)
	}
	return ix, nil
}

// mapperRuntime is the index sidecar's own runtime options (sidecar.Config.Runtime: a setting of the person's
// own stays). A sidecar that only lists runs without JavaScriptCore's DFG tier: a cold listing is over before that
// tier's background compiling pays for itself (over 1,000 sessions the listing's CPU fell by about a sixth), while
// a mapping job needs it (a 120 MB transcript's took twice the CPU without it).
func mapperRuntime(use indexUse) []string {
	if use != indexList {
		return nil
	}
	return []string{"BUN_JSC_useDFGJIT=0"}
}

// indexedSessions serves the session manager's stored-session reads from the index.
type indexedSessions struct{ ix *index.Index }

func (s indexedSessions) ListSessions(ctx context.Context, cwd string, limit int) ([]protocol.SessionInfo, error) {
	return s.ix.Sessions(ctx, cwd, limit)
}

// HistoryAt decodes a page from the index as the sidecar's history reply is decoded: each event's seq is its
// position + 1.
func (s indexedSessions) HistoryAt(ctx context.Context, id, at string, before *int, limit int) (session.HistoryPage, error) {
	page, err := s.ix.History(ctx, id, at, before, limit)
	if err != nil {
		return session.HistoryPage{}, fmt.Errorf("read the history of %s from the index: %w", id, err)
	}
	out := session.HistoryPage{Events: make([]activity.Event, 0, len(page.Events)), Total: page.Total, Start: page.Start}
	for i, raw := range page.Events {
		ev, err := activity.DecodeEvent(raw)
		if err != nil {
			return session.HistoryPage{}, fmt.Errorf("history event %d is invalid: %w", page.Start+i, err)
		}
		ev.Seq = uint64(page.Start + i + 1)
		out.Events = append(out.Events, ev)
	}
	return out, nil
}

func (s indexedSessions) MessageParent(ctx context.Context, id, message string) (string, bool, error) {
	return s.ix.MessageParent(ctx, id, message)
}
