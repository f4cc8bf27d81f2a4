package sidecar

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/baton-console/baton/app/protocol"
	segjson "github.com/segmentio/encoding/json"
)

// okFrame is how the sidecar frames an ok reply (sidecar/src/protocol/codec.ts okLine writes these keys in this
// order, the id being one this host gave): such a line's payload is taken from its place once it validates, without
// decoding the envelope first (a transcript page is a line of up to megabytes).
var (
	okFrame   = []byte(`{"v":` + strconv.Itoa(protocol.ProtocolVersion) + `,"id":"`)
	okPayload = []byte(`","type":"ok","payload":`)
)

// framedOK reads an ok reply framed as okFrame says; false for any other line, which takes the general path (so
// this one never accepts a line that one refuses, nor reads one differently).
func framedOK(line []byte) (protocol.Envelope, bool) {
	rest, ok := bytes.CutPrefix(line, okFrame)
	if !ok {
		return protocol.Envelope{}, false
	}
	id, payload, ok := bytes.Cut(rest, okPayload)
	if !ok || !digits(id) || len(payload) < 2 || payload[len(payload)-1] != '}' {
		return protocol.Envelope{}, false
	}
	payload = payload[:len(payload)-1]
	if !segjson.Valid(payload) {
		return protocol.Envelope{}, false
	}
	v := protocol.ProtocolVersion
	// A copy: the line's buffer is the reader's, read into again for the next line.
	return protocol.Envelope{V: &v, ID: string(id), Type: protocol.TypeOK, Payload: bytes.Clone(payload)}, true
}

// digits: an id as this host gives them (a number), which reads the same as a JSON string and as bytes.
func digits(id []byte) bool {
	for _, b := range id {
		if b < '0' || b > '9' {
			return false
		}
	}
	return len(id) > 0
}

// decodePayload decodes a reply's payload strictly: a field this host does not know is a protocol error, not
// silently dropped. segmentio's encoding/json decodes as the standard library does at a third of its CPU (a
// transcript page is up to megabytes, read while the index builds: PERFORMANCE.md).
func decodePayload(payload []byte, out any) error {
	rest, err := segjson.Parse(payload, out, segjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	if len(bytes.TrimLeft(rest, " \t\r\n")) > 0 {
		return errors.New("invalid character after the reply's payload")
	}
	return nil
}
