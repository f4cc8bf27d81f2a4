package console

import (
	"errors"
	"strings"
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
	c, cancel := ctx()
	defer cancel()
	if err := a.opts.Sessions.RenameSession(c, p.Session, title, p.Cwd); err != nil {
		return RenameResult{}, err
	}
	return RenameResult{Title: title}, nil
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
	return SessionInfo{Session: info.Session, Title: info.Title, Cwd: info.Cwd, LastModified: info.LastModified,
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
