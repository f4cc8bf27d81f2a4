package session

// busyLocked says why the session must stay awake, or "" when it may fall asleep. It is the one place that decides
// (callers hold s.mu): a turn running or waiting (the host tracks a prompt from the moment it is sent, so queued
// ones count), a permission request pending, or background work (Background.Busy: live background tasks, a goal
// being pursued, a continuation turn Claude Code runs on its own).
func (s *Session) busyLocked() string {
	switch { // the most specific reason first: a pending permission always has its turn running
	case len(s.pendingPerms) > 0:
		return "a permission request is waiting for an answer"
	case len(s.openTurns) > 0:
		return "a turn is running or waiting to run"
	case len(s.background.Tasks) > 0:
		return "background tasks are running"
	case s.background.Goal != nil && !s.background.Goal.Met:
		return "a goal is being pursued"
	case len(s.background.Continuations) > 0:
		return "Claude Code is continuing after background work"
	}
	return ""
}
