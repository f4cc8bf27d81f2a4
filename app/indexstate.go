package app

import (
	"fmt"
	"path/filepath"

	"github.com/baton-console/baton/app/console"
	"github.com/baton-console/baton/app/index"
)

// indexState is the index's progress as the console shows it (console.IndexState). Work under way shows as
// building even after a failed scan, whose message shows again once it is done. dbPath names the file a person
// may delete when the index keeps failing.
func indexState(p index.Progress, dbPath string) console.IndexState {
	s := console.IndexState{FilesDone: p.FilesDone, FilesTotal: p.FilesTotal, BytesDone: p.BytesDone,
		BytesTotal: p.BytesTotal, First: p.First}
	switch {
	case p.Indexing && p.Rebuild != "":
		s.State, s.Reason = console.IndexStatusRebuilding, rebuildReason(p.Rebuild)
	case p.Indexing:
		s.State = console.IndexStatusBuilding
	case p.Failed != "":
		s.State = console.IndexStatusFailed
		s.Message = fmt.Sprintf("Baton could not index the stored sessions: %s. Quit Baton and start it again to "+
			"retry; if it keeps failing, quit Baton and delete %s (it is rebuilt from Claude Code's transcripts).",
			p.Failed, dbPath)
	case p.Built:
		s.State = console.IndexStatusReady
	default:
		s.State = console.IndexStatusUnknown
	}
	return s
}

func rebuildReason(r index.Rebuild) console.IndexRebuildReason {
	switch r {
	case index.RebuildMapper:
		return console.IndexRebuildReasonMapper
	case index.RebuildRecovered:
		return console.IndexRebuildReasonRecovered
	}
	return ""
}

// indexOpenFailed is the console's state when the index could not be opened: history is still read, from the
// transcripts themselves.
func indexOpenFailed(err error, dir string) console.IndexState {
	return console.IndexState{State: console.IndexStatusFailed, Message: fmt.Sprintf("Baton could not open its "+
		"index of the stored sessions (%v), so history is read from the transcripts directly, slower for long "+
		"sessions. Quit Baton, delete %s and start Baton again to rebuild it.", err, filepath.Join(dir, index.FileName))}
}
