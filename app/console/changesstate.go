package console

import "sort"

// SetChanges records an open session's change counts and announces them (the `changes` push).
func (h *HostState) SetChanges(u ChangesUpdate) {
	h.mu.Lock()
	h.changes[u.Session] = u
	h.mu.Unlock()
	h.publish(HostUpdate{Changes: &u})
}

// ForgetChanges drops the counts of a session that closed.
func (h *HostState) ForgetChanges(session string) {
	h.mu.Lock()
	delete(h.changes, session)
	h.mu.Unlock()
}

// Changes are the open sessions' latest change counts, by session id (what a console connecting now has missed).
func (h *HostState) Changes() []ChangesUpdate {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]ChangesUpdate, 0, len(h.changes))
	for _, u := range h.changes {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Session < out[j].Session })
	return out
}
