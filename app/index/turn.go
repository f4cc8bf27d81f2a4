package index

import "github.com/baton-console/baton/app/activity"

// turnOf reads the turn an event belongs to ("" for none): its top-level "turn" string, scanned rather than
// decoded, because decoding every event of a large transcript whole would cost more than storing it.
func turnOf(event []byte) string {
	return activity.TopLevelString(event, "turn")
}
