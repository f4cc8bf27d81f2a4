package activity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// ErrUnknownKind marks an event whose kind this host's schema does not name.
var ErrUnknownKind = errors.New("unknown event kind")

// DecodeEvent reads one event the sidecar sent, strictly: the kind must be one the sidecar sends, every field
// must be one the kind's schema names, every required field must be there, enum values must be known, and the
// event must pass Validate. Anything else is an error naming the kind, so the caller can report it as a
// protocol error instead of dropping data silently.
func DecodeEvent(data []byte) (Event, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return Event{}, fmt.Errorf("an event that is not a JSON object: %w", err)
	}
	var kind Kind
	if err := json.Unmarshal(fields["kind"], &kind); err != nil || kind == "" {
		return Event{}, errors.New("an event without a kind")
	}
	spec, ok := kindSpecs[kind]
	if !ok {
		return Event{}, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	if spec.hostMade {
		return Event{}, fmt.Errorf("a %s event, which only the host makes", kind)
	}
	var unknown []string
	for name := range fields {
		if _, known := spec.fields[name]; !known {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Event{}, fmt.Errorf("a %s event with fields this host does not know: %q", kind, unknown)
	}
	var missing []string
	for name, required := range spec.fields {
		if _, present := fields[name]; required && !present {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return Event{}, fmt.Errorf("a %s event without %q", kind, missing)
	}
	// Unknown fields of nested objects (fileBefore, plan items, …) are refused by the decoder itself.
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var ev Event
	if err := dec.Decode(&ev); err != nil {
		return Event{}, fmt.Errorf("a malformed %s event: %w", kind, err)
	}
	if err := ev.checkValues(); err != nil {
		return Event{}, err
	}
	if err := ev.Validate(); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// HostMade reports whether only the host makes events of kind k (the sidecar never sends them).
func HostMade(k Kind) bool { return kindSpecs[k].hostMade }
