package activity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
)

// ErrUnknownKind marks an event whose kind this host's schema does not name.
var ErrUnknownKind = errors.New("unknown event kind")

// DecodeEvent reads one event the sidecar sent, strictly: the kind must be one the sidecar sends, every field
// must be one the kind's schema names, every required field must be there, and the values must pass Validate
// (enums, non-empty strings, nulls: what the schema says of them, generated). Anything else is an error naming the kind, so the caller can report it as a
// protocol error instead of dropping data silently.
//
// It runs for every stream piece, so the event is decoded once: the top-level keys are checked by a scan
// (toplevel.go), and only kinds with nested objects pay for a decoder that refuses their unknown fields.
func DecodeEvent(data []byte) (Event, error) {
	var buf [24][]byte
	keys, rawKind, err := topLevel(data, buf[:0])
	if err != nil {
		return Event{}, fmt.Errorf("an event that is %w", err)
	}
	kind, err := readKind(rawKind)
	if err != nil {
		return Event{}, err
	}
	spec, ok := kindSpecs[kind]
	if !ok {
		return Event{}, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	if spec.hostMade {
		return Event{}, fmt.Errorf("a %s event, which only the host makes", kind)
	}
	var unknown []string
	for _, k := range keys {
		if _, known := spec.fields[string(k)]; !known {
			unknown = append(unknown, string(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Event{}, fmt.Errorf("a %s event with fields this host does not know: %q", kind, unknown)
	}
	var missing []string
	for _, name := range requiredFields[kind] {
		if !slices.ContainsFunc(keys, func(k []byte) bool { return string(k) == name }) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return Event{}, fmt.Errorf("a %s event without %q", kind, missing)
	}
	if kind == MessageDelta {
		if ev, ok := decodeDelta(data); ok {
			if err := ev.Validate(); err != nil {
				return Event{}, err
			}
			return ev, nil
		}
	}
	var ev Event
	if nestedKinds[kind] {
		// Unknown fields of nested objects (fileBefore, plan items, …) are refused by the decoder itself.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		err = dec.Decode(&ev)
	} else {
		err = json.Unmarshal(data, &ev)
	}
	if err != nil {
		return Event{}, fmt.Errorf("a malformed %s event: %w", kind, err)
	}
	if err := ev.Validate(); err != nil {
		return Event{}, err
	}
	return ev, nil
}

// readKind reads an event's raw "kind" value; a plain one (every kind the sidecar writes) is looked up without
// the decoder's allocations.
func readKind(raw []byte) (Kind, error) {
	if body, ok := plainBody(raw); ok {
		if kind, known := kindNames[string(body)]; known {
			return kind, nil
		}
	}
	var kind Kind
	if err := json.Unmarshal(raw, &kind); err != nil || kind == "" {
		return "", errors.New("an event without a kind")
	}
	return kind, nil
}

// kindNames maps each kind's name to the kind, so a kind read off the wire costs a lookup, not a string.
var kindNames = func() map[string]Kind {
	out := make(map[string]Kind, len(Kinds))
	for _, k := range Kinds {
		out[string(k)] = k
	}
	return out
}()

// HostMade reports whether only the host makes events of kind k (the sidecar never sends them).
func HostMade(k Kind) bool { return kindSpecs[k].hostMade }

// requiredFields lists each kind's required fields, sorted (so a missing-field error reads the same every time).
var requiredFields = func() map[Kind][]string {
	out := map[Kind][]string{}
	for kind, spec := range kindSpecs {
		for name, required := range spec.fields {
			if required {
				out[kind] = append(out[kind], name)
			}
		}
		sort.Strings(out[kind])
	}
	return out
}()

// nestedKinds marks the kinds with a field holding a structured value (an object, or a list of them) whose own
// fields the decoder must check; the others decode without that check, their top-level keys checked already.
var nestedKinds = func() map[Kind]bool {
	byName := map[string]reflect.Type{}
	t := reflect.TypeFor[Event]()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		byName[name] = f.Type
	}
	out := map[Kind]bool{}
	for kind, spec := range kindSpecs {
		for name := range spec.fields {
			if structured(byName[name]) {
				out[kind] = true
			}
		}
	}
	return out
}()

// structured reports whether values of t are decoded field by field (structs, possibly behind pointers, slices
// or maps); raw JSON and time are not.
func structured(t reflect.Type) bool {
	for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map) {
		if t == reflect.TypeFor[json.RawMessage]() {
			return false
		}
		t = t.Elem()
	}
	return t != nil && t.Kind() == reflect.Struct && t != reflect.TypeFor[time.Time]()
}
