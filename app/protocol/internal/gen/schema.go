package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Schema is the subset of JSON Schema the zod export uses; anything else fails generation (see unsupported).
type Schema struct {
	Ref                  string          `json:"$ref"`
	Type                 json.RawMessage `json:"type"`
	Const                json.RawMessage `json:"const"`
	Enum                 []string        `json:"enum"`
	Format               string          `json:"format"`
	Properties           Properties      `json:"properties"`
	Required             []string        `json:"required"`
	Items                *Schema         `json:"items"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	PropertyNames        json.RawMessage `json:"propertyNames"`
	OneOf                []*Schema       `json:"oneOf"`
	AnyOf                []*Schema       `json:"anyOf"`
	MinLength            *int            `json:"minLength"`
	Minimum              *float64        `json:"minimum"`
	ExclusiveMinimum     *float64        `json:"exclusiveMinimum"`
	Maximum              *float64        `json:"maximum"`
}

// Property is one named property, in the order the schema lists it (the generated field order).
type Property struct {
	Name   string
	Schema *Schema
}

// Properties keeps the schema's order, which a Go map would lose.
type Properties []Property

// UnmarshalJSON reads an object's keys in order.
func (p *Properties) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var s Schema
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("property %v: %w", tok, err)
		}
		*p = append(*p, Property{Name: tok.(string), Schema: &s})
	}
	return nil
}

// Types returns the schema's type names ("string", or "string","null" for a nullable one).
func (s *Schema) Types() []string {
	if len(s.Type) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(s.Type, &many)
	return many
}

// RefName is the $defs name a $ref points at ("" when the schema is not a reference).
func (s *Schema) RefName() string {
	return strings.TrimPrefix(s.Ref, "#/$defs/")
}

// IsRequired reports whether name is in the schema's required list.
func (s *Schema) IsRequired(name string) bool {
	for _, r := range s.Required {
		if r == name {
			return true
		}
	}
	return false
}

// EventEntry is one kind of the x-events list.
type EventEntry struct {
	Kind   string `json:"kind"`
	Origin string `json:"origin"`
	Ref    string `json:"$ref"`
}

// RequestEntry is one request type of the x-requests list.
type RequestEntry struct {
	Type    string `json:"type"`
	Payload Schema `json:"payload"`
	Reply   Schema `json:"reply"`
}

// Document is wire.schema.json.
type Document struct {
	Version  int                `json:"x-version"`
	Events   []EventEntry       `json:"x-events"`
	Requests []RequestEntry     `json:"x-requests"`
	Defs     map[string]*Schema `json:"$defs"`
}

// Def returns a named definition or an error naming it.
func (d *Document) Def(name string) (*Schema, error) {
	s, ok := d.Defs[name]
	if !ok {
		return nil, fmt.Errorf("no $defs entry %q", name)
	}
	return s, nil
}

// EnumNames lists the string enums among the definitions, sorted.
func (d *Document) EnumNames() []string {
	var names []string
	for name, s := range d.Defs {
		if len(s.Enum) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
