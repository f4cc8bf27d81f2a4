package console

// Rewinding a session: its files to a user message, or its conversation to before a prompt.

import "github.com/baton-console/baton/app/activity"

// RewindFiles restores (or, dry, measures restoring) files to their state at a user message.
func (a *API) RewindFiles(p RewindParams) (RewindResult, error) {
	if p.Message == "" {
		return RewindResult{}, badRequest("Pick the message to rewind to.")
	}
	s, err := a.open(p.Session)
	if err != nil {
		return RewindResult{}, err
	}
	c, cancel := ctx()
	defer cancel()
	rep, err := s.RewindFiles(c, p.Message, p.DryRun)
	if err != nil {
		return RewindResult{}, err
	}
	return rep, nil
}

// RewindConversation rewinds the conversation to before a prompt: the session reopens resumed at the message
// the prompt followed, so the prompt and everything after it are left out of what the agent sees (and the next
// prompt continues from there). Rewinding to before the first prompt leaves nothing: a new session starts in the
// same folder. The model and permission mode carry over.
func (a *API) RewindConversation(p ConversationRewindParams) (SessionRef, error) {
	if p.Message == "" {
		return SessionRef{}, badRequest("Pick the message to rewind to.")
	}
	cwd, model := "", ""
	var mode activity.PermissionMode
	s, open := a.opts.Sessions.Get(p.Session)
	if open {
		st := s.State()
		cwd, model, mode = st.Cwd, st.RequestedModel, st.PermissionMode
	}
	if cwd == "" {
		c, cancel := ctx()
		list, err := a.opts.Sessions.ListSessions(c, "", 0)
		cancel()
		if err != nil {
			return SessionRef{}, err
		}
		for _, info := range list {
			if info.Session == p.Session {
				cwd = info.Cwd
			}
		}
		if cwd == "" {
			return SessionRef{}, notFound("Session %s was not found.", p.Session)
		}
	}
	c, cancel := ctx()
	parent, found, err := a.opts.Sessions.MessageParent(c, p.Session, cwd, p.Message)
	cancel()
	if err != nil {
		return SessionRef{}, err
	}
	if !found {
		return SessionRef{}, notFound("That prompt is not in this session's conversation any more; nothing was rewound.")
	}
	if open {
		c, cancel := ctx()
		err := s.Close(c)
		cancel()
		if err != nil {
			return SessionRef{}, err
		}
	}
	if model == "default" {
		model = ""
	}
	start := StartParams{Cwd: cwd, Model: model, PermissionMode: mode}
	if parent != "" {
		start.Resume, start.At = p.Session, parent
	}
	res, err := a.StartSession(start)
	if err != nil && start.At != "" && compactedAway(err) {
		res, err = a.rewindPastCompaction(p.Session, start)
	}
	return SessionRef{Session: res.Session}, rewindError(err)
}

// rewindPastCompaction rewinds to start.At when a /compact came after it: Claude Code keeps only its summary of
// what came before, so it cannot resume the session there; the conversation up to start.At is copied into a new
// session (under the same name, marked as made from this one) and that is resumed. The session keeps all it had.
func (a *API) rewindPastCompaction(session string, start StartParams) (StartResult, error) {
	c, cancel := ctx()
	fork, err := a.opts.Sessions.ForkSession(c, session, start.Cwd, start.At, a.titleOf(session, start.Cwd))
	cancel()
	if err != nil {
		return StartResult{}, err
	}
	start.Resume, start.At = fork, ""
	res, err := a.StartSession(start)
	if err == nil {
		a.recordFork(res.Session, session)
	}
	return res, err
}

// titleOf is the name a session shows under: Baton's own, else the stored list's ("" when neither knows it).
func (a *API) titleOf(session, cwd string) string {
	if title := a.meta(session).Title; title != "" {
		return title
	}
	c, cancel := ctx()
	defer cancel()
	list, err := a.opts.Sessions.ListSessions(c, cwd, 0)
	if err != nil {
		return ""
	}
	for _, info := range list {
		if info.Session == session {
			return info.Title
		}
	}
	return ""
}
