package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Line types of the envelope.
const (
	TypeOK    = "ok"
	TypeError = "error"
	TypeEvent = "event"
)

// MaxLineBytes bounds one protocol line on both sides; a longer line is dropped whole and reported.
const MaxLineBytes = 8 << 20

// Envelope is one NDJSON line in either direction. V is a pointer so a missing version is told apart from 0.
type Envelope struct {
	V       *int            `json:"v"`
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
	Error   *ErrorBody      `json:"error,omitempty"`
	Event   json.RawMessage `json:"event,omitempty"`
}

// ErrorBody is the error reply's payload.
type ErrorBody struct {
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
}

// Error is the sidecar's message, written for a person; the code is for programs (errors.As).
func (e *ErrorBody) Error() string { return e.Message }

// ErrUnsupportedVersion is returned for a line whose version is missing or is not ProtocolVersion.
var ErrUnsupportedVersion = errors.New("unsupported protocol version")

// DecodeLine parses one line and enforces the version rule. The envelope is returned even on a version error
// when it parsed, so the caller can still answer its id.
func DecodeLine(line []byte) (Envelope, error) {
	// The version is read loosely first so that a line with a malformed version still yields its id.
	var loose struct {
		V       json.RawMessage `json:"v"`
		ID      json.RawMessage `json:"id"`
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
		Error   *ErrorBody      `json:"error"`
		Event   json.RawMessage `json:"event"`
	}
	if err := json.Unmarshal(line, &loose); err != nil {
		return Envelope{}, fmt.Errorf("not a protocol line: %w", err)
	}
	env := Envelope{Type: loose.Type, Payload: loose.Payload, Error: loose.Error, Event: loose.Event}
	_ = json.Unmarshal(loose.ID, &env.ID) // a non-string id is treated as absent
	if len(loose.V) == 0 || string(loose.V) == "null" {
		return env, fmt.Errorf("%w: the line carries no version (this host speaks %d)", ErrUnsupportedVersion, ProtocolVersion)
	}
	var v int
	if err := json.Unmarshal(loose.V, &v); err != nil || v != ProtocolVersion {
		return env, fmt.Errorf("%w: the line carries version %s, this host speaks %d", ErrUnsupportedVersion, loose.V, ProtocolVersion)
	}
	env.V = &v
	if env.Type == "" {
		return env, errors.New("not a protocol line: no type")
	}
	return env, nil
}

// EncodeRequest renders a request line (without the trailing newline). HTML escaping is off: json.Marshal would
// write each <, > and & of a prompt as six bytes, and a prompt well under the bound would cross it.
func EncodeRequest(id string, typ RequestType, payload any) ([]byte, error) {
	raw, err := marshalPlain(payload)
	if err != nil {
		return nil, fmt.Errorf("encode %s payload: %w", typ, err)
	}
	v := ProtocolVersion
	return marshalPlain(Envelope{V: &v, ID: id, Type: string(typ), Payload: raw})
}

// marshalPlain is json.Marshal without HTML escaping (and without the Encoder's newline).
func marshalPlain(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// TooLargeError is a request refused before it was sent: its line would pass MaxLineBytes, and the sidecar
// would drop it. The message names the request and both sizes.
func TooLargeError(typ RequestType, lineBytes int) *ErrorBody {
	what := "the " + string(typ) + " request"
	if typ == ReqExec || typ == ReqGuide {
		what = "prompt"
	}
	return &ErrorBody{Code: CodeBadRequest, Message: fmt.Sprintf("%s too large (%.1f MB of %d MB); send a shorter one",
		what, float64(lineBytes)/(1<<20), MaxLineBytes>>20)}
}
