package console

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/sessionmeta"
)

// maxTitleChars bounds a title the person types (the wire's own bound).
const maxTitleChars = 200

// RenameSession sets a stored session's own title, the one Claude Code's /rename sets: it shows in the CLI's
// session list too, and it survives a reload.
func (a *API) RenameSession(p RenameParams) (RenameResult, error) {
	title := strings.Join(strings.Fields(p.Title), " ")
	if title == "" {
		return RenameResult{}, badRequest("Type a title for the session.")
	}
	if utf8.RuneCountInString(title) > maxTitleChars {
		return RenameResult{}, badRequest("A title can be at most %d characters long.", maxTitleChars)
	}
	if !protocol.ValidSessionID(p.Session) {
		return RenameResult{}, badRequest("%q is not a session id.", p.Session)
	}
	// An open session's title is recorded first: the list reads it while Claude Code writes it (seconds), and
	// an open fork before its first turn has no transcript to hold it yet (Baton's record keeps it then).
	_, open := a.opts.Sessions.Get(p.Session)
	kept := open && a.recordTitle(p.Session, title)
	c, cancel := ctx()
	defer cancel()
	if err := a.opts.Sessions.RenameSession(c, p.Session, title, p.Cwd); err != nil {
		if kept {
			return RenameResult{Title: title}, nil
		}
		return RenameResult{}, err
	}
	// The transcript holds the title now, so Baton's record lets go of it: a later /rename in Claude Code wins.
	a.recordTitle(p.Session, "")
	return RenameResult{Title: title}, nil
}

// recordTitle keeps a title given in Baton in its own record, which the list reads first ("" forgets it); false
// when it could not.
func (a *API) recordTitle(id, title string) bool {
	if a.opts.Meta == nil {
		return false
	}
	if _, err := a.opts.Meta.Update(id, func(m *sessionmeta.Meta) { m.Title = title }); err != nil {
		a.opts.Logger.Warn().Err(err).Str("session", id).Msg("could not record the session's title")
		return false
	}
	return true
}

// SetSessionFlags pins or unpins, archives or restores a session. These are Baton's own marks, kept in its data
// dir, not in Claude Code's files.
func (a *API) SetSessionFlags(p FlagsParams) (FlagsResult, error) {
	if a.opts.Meta == nil {
		return FlagsResult{}, &Error{Code: CodeUnavailable, Message: "Baton has no data folder here, so it cannot keep pins and archives."}
	}
	if !protocol.ValidSessionID(p.Session) {
		return FlagsResult{}, badRequest("%q is not a session id.", p.Session)
	}
	m, err := a.opts.Meta.Update(p.Session, func(m *sessionmeta.Meta) {
		if p.Pinned != nil {
			m.Pinned = *p.Pinned
		}
		if p.Archived != nil {
			m.Archived = *p.Archived
		}
	})
	if unreadable := (*sessionmeta.UnreadableError)(nil); errors.As(err, &unreadable) {
		return FlagsResult{}, &Error{Code: CodeUnavailable, Message: "Pins and archives cannot be saved: " + unreadable.Error() + "."}
	}
	if err != nil {
		return FlagsResult{}, &Error{Code: CodeInternal, Message: err.Error()}
	}
	return FlagsResult{Pinned: m.Pinned, Archived: m.Archived}, nil
}

// sessionEntry is a stored session as the console lists it: the sidecar's SessionInfo, with whether it is open
// here and Baton's own marks (TestSessionEntryKeepsEveryStoredField checks no stored field is dropped).
func sessionEntry(info protocol.SessionInfo, live bool, meta sessionmeta.Meta) SessionInfo {
	title := info.Title
	if meta.Title != "" {
		title = meta.Title // given in Baton: a fork's name holds before its transcript has it
	}
	return SessionInfo{Session: info.Session, Title: title, Cwd: info.Cwd, LastModified: info.LastModified,
		CreatedAt: info.CreatedAt, GitBranch: info.GitBranch, FirstPrompt: info.FirstPrompt, Live: live,
		Pinned: meta.Pinned, Archived: meta.Archived, ForkOf: meta.ForkOf}
}

func (a *API) meta(id string) sessionmeta.Meta {
	if a.opts.Meta == nil {
		return sessionmeta.Meta{}
	}
	return a.opts.Meta.Get(id)
}

// recordFork remembers which session a fork was made from, so the list can mark it. Failing to is logged, not
// fatal: the fork itself is open.
func (a *API) recordFork(fork, parent string) {
	if a.opts.Meta == nil {
		return
	}
	if _, err := a.opts.Meta.Update(fork, func(m *sessionmeta.Meta) { m.ForkOf = parent }); err != nil {
		a.opts.Logger.Warn().Err(err).Str("session", fork).Msg("could not record the fork's parent")
	}
}

// namedUnstored lists the open sessions named in Baton that have no transcript yet (a fork before its first
// turn): a reload still shows their name. listed holds the sessions the stored list already has.
func (a *API) namedUnstored(listed map[string]bool, cwd string) []SessionInfo {
	var out []SessionInfo
	for _, s := range a.opts.Sessions.Open() {
		id := s.ID()
		meta := a.meta(id)
		if listed[id] || meta.Title == "" {
			continue
		}
		dir := s.State().Cwd
		if cwd != "" && dir != cwd {
			continue
		}
		out = append(out, SessionInfo{Session: id, Title: meta.Title, Cwd: dir, LastModified: int(time.Now().UnixMilli()),
			Live: true, Pinned: meta.Pinned, Archived: meta.Archived, ForkOf: meta.ForkOf})
	}
	return out
}
