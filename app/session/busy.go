package session

import "encoding/json"

// busyLocked says why the session must stay awake, or "" when it may fall asleep. It is the one place that decides
// (callers hold s.mu): a turn running or waiting (the host tracks a prompt from the moment it is sent, so queued
// ones count), a permission request pending, live background tasks, or a goal being pursued.
func (s *Session) busyLocked() string {
	switch { // the most specific reason first: a pending permission always has its turn running
	case len(s.pendingPerms) > 0:
		return "a permission request is waiting for an answer"
	case len(s.openTurns) > 0:
		return "a turn is running or waiting to run"
	case s.background.tasks > 0:
		return "background tasks are running"
	case s.background.goalActive():
		return "a goal is being pursued"
	}
	return ""
}

// background is what the session knows of work that outlives a turn.
//
// MERGE HOOK (issue 14, "Background work, continuations and goals"): today background tasks reach the host only as
// the SDK's system/background_tasks_changed message inside an `unknown` event, which observe reads below. When
// issue 14's task and goal events land, feed tasks from them instead (the level: the live set's size) and make
// goalActive report its active goal; busyLocked needs no other change.
type background struct {
	tasks int // size of the live background-task set (a level signal: each report replaces it)
}

// backgroundLevel is the part of system/background_tasks_changed the host needs.
type backgroundLevel struct {
	Type    string            `json:"type"`
	Subtype string            `json:"subtype"`
	Tasks   []json.RawMessage `json:"tasks"`
}

// observe reads an unknown event's raw SDK message; it reports true when the live set became empty.
func (b *background) observe(raw json.RawMessage) (quiesced bool) {
	var level backgroundLevel
	if len(raw) == 0 || json.Unmarshal(raw, &level) != nil || level.Type != "system" || level.Subtype != "background_tasks_changed" {
		return false
	}
	was := b.tasks
	b.tasks = len(level.Tasks)
	return was > 0 && b.tasks == 0
}

// reset forgets the live set: Claude Code reports nothing at start, so a fresh process starts from empty.
func (b *background) reset() { b.tasks = 0 }

// goalActive reports a goal being pursued. MERGE HOOK (issue 14): wire to its goal state; false until then.
func (b *background) goalActive() bool { return false }
