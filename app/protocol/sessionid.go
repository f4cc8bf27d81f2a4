package protocol

import "regexp"

// sessionIDPattern is the one rule for a session id on both sides of the wire: an RFC 9562 UUID exactly as the
// sidecar's zod `z.uuid()` accepts it (sidecar/src/protocol/schemas.ts), so the host can turn a bad id into a
// person's error instead of letting protocol wording through. Both sides test it against
// sidecar/testdata/protocol/session-ids.json.
var sessionIDPattern = regexp.MustCompile(`^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$`)

// ValidSessionID reports whether s is a session id the sidecar accepts.
func ValidSessionID(s string) bool { return sessionIDPattern.MatchString(s) }
