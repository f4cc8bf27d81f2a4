package activity

import (
	"fmt"
)

var knownKinds = func() map[Kind]bool {
	m := make(map[Kind]bool, len(Kinds))
	for _, k := range Kinds {
		m[k] = true
	}
	return m
}()

// turnKinds must name their turn. The schema leaves `turn` optional on every kind (the sidecar builds an event's
// body before it knows the turn, and stamps it then); an end or start of no turn would attach to nothing.
var turnKinds = map[Kind]bool{
	TurnQueued: true, TurnStarted: true, TurnCompleted: true, TurnFailed: true, TurnCanceled: true,
}

// Validate checks that an event's values are what its kind's schema allows (checkValues, generated from the
// schema: enums, non-empty strings, no nulls, constants), so a malformed sidecar line is refused at the boundary
// instead of surfacing as a half-empty row in a front end. Which keys a line has is DecodeEvent's check; this
// also runs on events the host builds. Beyond the schema it asks only what a Go value cannot say through it: a
// time, and a turn on the turn kinds.
func (e Event) Validate() error {
	if !knownKinds[e.Kind] {
		return fmt.Errorf("unknown event kind %q", e.Kind)
	}
	if e.Time.IsZero() {
		return fmt.Errorf("%s event without a time", e.Kind)
	}
	if turnKinds[e.Kind] && e.Turn == "" {
		return fmt.Errorf("%s event without turn", e.Kind)
	}
	return e.checkValues()
}
