package session

import "github.com/baton-console/baton/app/activity"

// openTools are the tool calls each turn started that got no terminal event yet (PROTOCOL.md, "Settling"). The
// sidecar closes them when a turn is canceled or fails; when the sidecar itself dies, nobody else knows which
// tool.started had no end, so the host closes them before it fails their turns.
type openTools map[string][]openTool // turn → calls, in the order they started

type openTool struct{ id, name string }

// observe notes a call that started or ended. Calls of no turn are left alone.
func (o openTools) observe(ev activity.Event) {
	if ev.Turn == "" {
		return
	}
	switch ev.Kind {
	case activity.ToolStarted:
		o[ev.Turn] = append(o[ev.Turn], openTool{id: ev.ToolUseID, name: ev.Name})
	case activity.ToolCompleted, activity.ToolFailed, activity.ToolInterrupted:
		calls := o[ev.Turn]
		for i, c := range calls {
			if c.id == ev.ToolUseID {
				o[ev.Turn] = append(calls[:i:i], calls[i+1:]...)
				break
			}
		}
	case activity.TurnCompleted, activity.TurnFailed, activity.TurnCanceled:
		// Ended: whatever stays open belongs to background work the turn launched, or was settled with the end.
		delete(o, ev.Turn)
	default:
		// The other kinds neither open nor close a call.
	}
}

// take returns the turn's open calls as their terminal events and forgets them.
func (o openTools) take(turn string, cause activity.ToolInterruptCause) []activity.Event {
	calls := o[turn]
	delete(o, turn)
	out := make([]activity.Event, 0, len(calls))
	for _, c := range calls {
		out = append(out, activity.Event{Kind: activity.ToolInterrupted, Turn: turn, ToolUseID: c.id, Name: c.name, Cause: cause})
	}
	return out
}
