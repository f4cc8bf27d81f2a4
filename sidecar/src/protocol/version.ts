// The one wire version this sidecar speaks. app/protocol/version.go holds the same number;
// test/protocol/version.test.ts fails when the two disagree.
export const PROTOCOL_VERSION = 4;

// Both sides bound a line at 8 MiB (PROTOCOL.md, "Maximum line length").
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
