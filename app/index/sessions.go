package index

import (
	"context"
	"fmt"
	"os"
	"sort"

	"github.com/baton-console/baton/app/protocol"
)

// scanAll is the build: every session on disk whose items are not current is queued (progress counts its files
// and bytes up front), sessions whose transcript is gone are dropped, and the session list is brought up to date.
func (ix *Index) scanAll(ctx context.Context) error {
	onDisk, err := ix.scanStartingMapper(ctx)
	if err != nil {
		return err
	}
	if _, err := ix.syncList(ctx, onDisk); err != nil {
		ix.log.Warn().Err(err).Msg("index: list the sessions")
	}
	ix.mu.Lock()
	trust := ix.quickScan && ix.probed // this Baton's mapper mapped the index: its version is known
	ix.mu.Unlock()
	if probe := smallest(onDisk); probe != nil && !trust {
		if err := ix.probeMapper(ctx, probe); err != nil {
			return fmt.Errorf("ask the mapper its version: %w", err) // it maps nothing now: nothing is queued
		}
	}
	ix.mu.Lock()
	ix.scan = false // a new version asks for a scan: this one, planned after it
	ix.mu.Unlock()
	version := ix.mapperVersion()
	ids := make([]string, 0, len(onDisk))
	for id := range onDisk {
		ids = append(ids, id)
	}
	// Newest first: the sessions a person opens next are ready first.
	sort.Slice(ids, func(i, j int) bool {
		a, b := onDisk[ids[i]].main, onDisk[ids[j]].main
		if a.mtime != b.mtime {
			return a.mtime > b.mtime
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		f := onDisk[id]
		p, err := planFor(ctx, ix.st.writer, f, version, ix.receiptDigest(id))
		if err != nil {
			return err
		}
		if p.kind != planFresh {
			ix.queuedWork(f)
			ix.enqueue(id, false)
		}
	}
	return nil
}

// mapperStarter is a mapper that can start its process ahead of the calls that need it (SidecarMapper).
type mapperStarter interface {
	Start(ctx context.Context) error
}

// scanStartingMapper finds every session on disk. The first scan of an index this process created is followed by
// a listing of all it found (cold `baton sessions`, a first build), so the mapper's sidecar, about 100 ms from
// start to ready, starts while the folders are read.
func (ix *Index) scanStartingMapper(ctx context.Context) (map[string]*sessionFiles, error) {
	ix.mu.Lock()
	created := ix.created
	ix.created = false
	ix.mu.Unlock()
	starter, ok := ix.opts.Mapper.(mapperStarter)
	if !created || !ok || !hasProjects(ix.opts.ProjectsDir) {
		return scanAll(ix.opts.ProjectsDir)
	}
	var onDisk map[string]*sessionFiles
	var err error
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		onDisk, err = scanAll(ix.opts.ProjectsDir)
	}()
	if startErr := starter.Start(ctx); startErr != nil { // the listing's own call starts it again, or says why not
		ix.log.Debug().Err(startErr).Msg("index: start the mapper ahead of the listing")
	}
	<-scanned
	return onDisk, err
}

// hasProjects says whether Claude Code's projects folder holds anything (a new install's has nothing to list).
func hasProjects(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	names, _ := f.Readdirnames(1)
	return len(names) > 0
}

// smallest is the session with the smallest transcript: opening a job on it is the cheapest way to learn the
// mapper's version.
func smallest(onDisk map[string]*sessionFiles) *sessionFiles {
	var best *sessionFiles
	for _, f := range onDisk {
		if best == nil || f.main.size < best.main.size {
			best = f
		}
	}
	return best
}

// knownList is the listing's part of the sessions table: which sessions it has and the file each was read at.
func (ix *Index) knownList(ctx context.Context) (map[string][2]int64, error) {
	rows, err := ix.st.reader.QueryContext(ctx, "SELECT session, info_size, info_mtime FROM sessions")
	if err != nil {
		return nil, fmt.Errorf("read the session list from the index: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string][2]int64{}
	for rows.Next() {
		var id string
		var size, mtime int64
		if err := rows.Scan(&id, &size, &mtime); err != nil {
			return nil, fmt.Errorf("read the session list from the index: %w", err)
		}
		out[id] = [2]int64{size, mtime}
	}
	return out, rows.Err()
}

// syncList brings the listed part of the sessions table up to date with onDisk: sessions gone are queued to be
// forgotten, and the titles of new or changed ones are read again from the sidecar (one project, or all when a
// session's project folder is not known yet). It returns the sessions that changed.
func (ix *Index) syncList(ctx context.Context, onDisk map[string]*sessionFiles) ([]string, error) {
	known, err := ix.knownList(ctx)
	if err != nil {
		return nil, err
	}
	var changed []string
	for id := range known {
		if onDisk[id] == nil {
			ix.Touch(id)
		}
	}
	for id, f := range onDisk {
		if at, ok := known[id]; !ok || at != [2]int64{f.main.size, f.main.mtime} {
			changed = append(changed, id)
		}
	}
	if len(changed) == 0 {
		return nil, nil
	}
	if err := ix.refreshInfo(ctx, onDisk, changed); err != nil {
		return nil, err
	}
	return changed, nil
}

// refreshInfo reads the titles (and the rest of what the list shows) of the changed sessions from the sidecar.
func (ix *Index) refreshInfo(ctx context.Context, onDisk map[string]*sessionFiles, changed []string) error {
	cwds, err := ix.cwdsOf(ctx, changed)
	if err != nil {
		return err
	}
	infos := map[string]protocol.SessionInfo{}
	for cwd := range cwds {
		list, err := ix.opts.Mapper.ListSessions(ctx, cwd)
		if err != nil {
			return fmt.Errorf("list the sessions: %w", err)
		}
		for _, info := range list {
			infos[info.Session] = info
		}
	}
	tx, err := ix.st.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("write to the index: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	// One statement prepared once: a fresh index records a thousand sessions here while `baton sessions` waits.
	record, err := tx.PrepareContext(ctx, recordInfo)
	if err != nil {
		return fmt.Errorf("write to the index: %w", err)
	}
	defer func() { _ = record.Close() }()
	for _, id := range changed {
		f := onDisk[id]
		info, listed := infos[id]
		if _, err := record.ExecContext(ctx, id, f.main.path, f.project, listed, info.Cwd, info.Title, info.FirstPrompt,
			info.GitBranch, info.CreatedAt, info.LastModified, f.main.size, f.main.mtime); err != nil {
			return fmt.Errorf("record session %s: %w", id, err)
		}
	}
	return tx.Commit()
}

// recordInfo records what the list shows of a session; a session already known keeps its file and project.
const recordInfo = `INSERT INTO sessions(session, file, project, listed, cwd, title, first_prompt, git_branch, created_at,
		modified_at, info_size, info_mtime) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT(session) DO UPDATE SET listed = excluded.listed, cwd = excluded.cwd, title = excluded.title,
		first_prompt = excluded.first_prompt, git_branch = excluded.git_branch, created_at = excluded.created_at,
		modified_at = excluded.modified_at, info_size = excluded.info_size, info_mtime = excluded.info_mtime`

// cwdsOf is which project folders to list for these sessions: "" (all) when any is new to the index.
func (ix *Index) cwdsOf(ctx context.Context, sessions []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range sessions {
		var cwd string
		err := ix.st.reader.QueryRowContext(ctx, "SELECT cwd FROM sessions WHERE session = ? AND listed = 1", id).Scan(&cwd)
		if err != nil || cwd == "" {
			return map[string]bool{"": true}, nil // not known yet: list them all
		}
		out[cwd] = true
	}
	return out, nil
}

// Sessions lists stored sessions, newest first, as the session list shows them (cwd: only that project folder's;
// limit 0: all). The files are checked first, so a session written a moment ago is listed with its title.
func (ix *Index) Sessions(ctx context.Context, cwd string, limit int) ([]protocol.SessionInfo, error) {
	onDisk, err := ix.scanStartingMapper(ctx)
	if err != nil {
		return nil, err
	}
	changed, err := ix.syncList(ctx, onDisk)
	if err != nil {
		return nil, err
	}
	ix.mu.Lock()
	building := ix.building
	ix.mu.Unlock()
	for _, id := range changed {
		if building { // a headless command indexes only what it reads
			ix.Touch(id)
		}
	}
	q := `SELECT session, title, cwd, modified_at, created_at, git_branch, first_prompt FROM sessions WHERE listed = 1`
	args := []any{}
	if cwd != "" {
		q += " AND cwd = ?"
		args = append(args, cwd)
	}
	rows, err := ix.st.reader.QueryContext(ctx, q+" ORDER BY modified_at DESC, session", args...)
	if err != nil {
		return nil, fmt.Errorf("read the session list from the index: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []protocol.SessionInfo{}
	for rows.Next() && (limit <= 0 || len(out) < limit) {
		var s protocol.SessionInfo
		var created *int
		if err := rows.Scan(&s.Session, &s.Title, &s.Cwd, &s.LastModified, &created, &s.GitBranch, &s.FirstPrompt); err != nil {
			return nil, fmt.Errorf("read the session list from the index: %w", err)
		}
		s.CreatedAt = created
		if onDisk[s.Session] != nil {
			out = append(out, s)
		}
	}
	return out, rows.Err()
}
