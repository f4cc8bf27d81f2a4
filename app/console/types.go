package console

import (
	"github.com/baton-console/baton/app/discovery"
	"github.com/baton-console/baton/app/protocol"
)

// The console API's types are generated from its contract (types_gen.go); these names are the shapes it
// reuses from the sidecar's wire or another package, under the names the host has always used.

// AnswerResult is the sidecar's permission reply: false when the request had already been settled, with the
// answer recorded then.
type AnswerResult = protocol.PermissionReply

// RewindResult is the SDK's answer to a files rewind, as the sidecar relays it.
type RewindResult = protocol.RewindFilesReply

// ModelList is the composer's model list for the signed-in account: {models, account} (console.json's
// ModelList, checked by TestBoundTypesMatchTheContract).
type ModelList = discovery.Models
