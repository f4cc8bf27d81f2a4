// The version of the mapping from transcripts to events: the host's index keeps what a version mapped and rebuilds
// when it changes. Bump it with any change to what a transcript maps to.
export const MAPPER_VERSION = '5';
