package console

import (
	"errors"
	"fmt"
	"strings"

	"github.com/baton-console/baton/app/protocol"
	"github.com/baton-console/baton/app/session"
)

// Error is a failed call (its codes, CodeBadRequest…, are generated from the contract into methods_gen.go): Message is written for a person and shown as is.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Message }

func badRequest(format string, a ...any) error {
	return &Error{Code: CodeBadRequest, Message: fmt.Sprintf(format, a...)}
}

func notFound(format string, a ...any) error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf(format, a...)}
}

// AsError turns any error into the API's error shape: a start the user can fix (session.StartError, such as a
// folder that is not there) is a bad request; anything not typed is internal.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var start *session.StartError
	if errors.As(err, &start) {
		return &Error{Code: CodeBadRequest, Message: err.Error()}
	}
	var body *protocol.ErrorBody
	if errors.As(err, &body) {
		return &Error{Code: sidecarCode(body.Code), Message: err.Error()}
	}
	return &Error{Code: CodeInternal, Message: err.Error()}
}

// sidecarCode is the console's code for a sidecar's refusal: what the caller asked for wrongly, or named and is
// not there, is theirs to fix; the rest is internal.
func sidecarCode(code protocol.ErrorCode) string {
	switch code {
	case protocol.CodeBadRequest, protocol.CodeLineTooLong, protocol.CodeSessionExists:
		return CodeBadRequest
	case protocol.CodeUnknownSession, protocol.CodeSessionNotFound, protocol.CodeUnknownTurn:
		return CodeNotFound
	default:
		return CodeInternal
	}
}

// compactedAwayText is what Claude Code answers when asked to resume at a message a /compact summarized away.
const compactedAwayText = "No message found with message.uuid"

// compactedAway says whether err is Claude Code refusing to resume at a message from before a /compact.
func compactedAway(err error) bool { return strings.Contains(err.Error(), compactedAwayText) }

// rewindError says plainly why a conversation rewind to before a /compact point failed: Claude Code keeps only
// the compaction's summary of what came before, so it cannot resume there. Other errors pass unchanged.
func rewindError(err error) error {
	if err == nil || !compactedAway(err) {
		return err
	}
	return &Error{Code: CodeBadRequest, Message: "That prompt came before a /compact: Claude Code keeps only its summary of " +
		"what came before, so the conversation cannot be rewound there. Rewind to a later prompt, or fork from a reply."}
}
