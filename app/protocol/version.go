// Package protocol defines the versioned NDJSON wire between the Go host and the sidecar (see PROTOCOL.md).
package protocol

// ProtocolVersion is the one wire version this host speaks; any other is rejected, with no negotiation.
// sidecar/src/protocol/version.ts holds the same number and a test on each side fails when they disagree.
const ProtocolVersion = 4
