// Package activity is Baton's public boundary: the normalized events every front end (terminal, window, browser)
// consumes. Raw SDK shapes never leave the runtime; they are mapped into these by the sidecar.
//
// The kinds, the flat Event struct, the enums and the nested shapes are generated (*_gen.go) from
// app/protocol/schema/wire.schema.json, which is generated from the sidecar's zod schemas; see
// app/protocol/PROTOCOL.md, "Adding a kind".
package activity

// Kind names what happened. Front ends branch on kinds, never on which agent produced them.
type Kind string

// Terminal reports whether the event ends its turn.
func (e Event) Terminal() bool {
	return e.Kind == TurnCompleted || e.Kind == TurnFailed || e.Kind == TurnCanceled
}
