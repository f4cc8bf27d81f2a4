package gen

import (
	"fmt"
	"strings"
	"unicode"
)

// initialisms Go spells in capitals (a field "toolUseId" becomes ToolUseID).
var initialisms = map[string]string{"id": "ID", "uuid": "UUID", "http": "HTTP", "api": "API", "sdk": "SDK", "url": "URL"}

// GoName turns a JSON or wire name ("toolUseId", "session.started", "api_error") into an exported Go name.
func GoName(name string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = nil
		}
	}
	for _, r := range name {
		switch {
		case r == '.' || r == '_' || r == '-' || r == ' ':
			flush()
		case unicode.IsUpper(r):
			flush()
			cur = append(cur, unicode.ToLower(r))
		default:
			cur = append(cur, r)
		}
	}
	flush()
	var b strings.Builder
	for _, w := range words {
		if up, ok := initialisms[w]; ok {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// shape classifies a Go type for the rules that follow from it (pointers in the flat event, zero values).
type shape int

const (
	shapeString   shape = iota // string or a string enum
	shapeScalar                // int64, float64, bool
	shapeSlice                 // []T
	shapeRaw                   // json.RawMessage
	shapeStruct                // a named struct
	shapeNullable              // *string (a nullable string)
)

// goType is a resolved Go type: Expr as written in the package being generated.
type goType struct {
	Expr  string
	Shape shape
	Enum  string // the enum's definition name, when the type is (or is a slice of) one
	Named string // the named struct's definition name, when it is (or is a slice of) one
}

// resolver turns schemas into Go types. Definitions that events reach live in package activity; the rest
// (request and reply shapes) in package protocol.
type resolver struct {
	doc      *Document
	activity map[string]bool // definition names generated into package activity
	pkg      string          // the package being generated
}

func (r *resolver) qualify(name string) string {
	if r.activity[name] && r.pkg != "activity" {
		return "activity." + name
	}
	return name
}

func (r *resolver) typeOf(s *Schema) (goType, error) {
	if name := s.RefName(); name != "" {
		def, err := r.doc.Def(name)
		if err != nil {
			return goType{}, err
		}
		switch {
		case name == "Json":
			return goType{Expr: "json.RawMessage", Shape: shapeRaw}, nil
		case name == "Event":
			// Events inside a reply are kept raw and decoded strictly (activity.DecodeEvent) where they land.
			return goType{Expr: "json.RawMessage", Shape: shapeRaw}, nil
		case len(def.Enum) > 0:
			return goType{Expr: r.qualify(name), Shape: shapeString, Enum: name}, nil
		case len(def.Properties) > 0 || hasType(def, "object"):
			return goType{Expr: r.qualify(name), Shape: shapeStruct, Named: name}, nil
		}
		return goType{}, fmt.Errorf("$defs %q is neither an enum, an object nor Json", name)
	}
	types := s.Types()
	switch {
	case len(types) == 2 && types[0] == "string" && types[1] == "null":
		return goType{Expr: "*string", Shape: shapeNullable}, nil
	case len(types) != 1:
		return goType{}, fmt.Errorf("unsupported type %s", s.Type)
	}
	switch types[0] {
	case "string":
		return goType{Expr: "string", Shape: shapeString}, nil
	case "integer":
		// Events count tokens and sizes (int64, as the host has always held them); requests and replies count
		// positions and limits (int).
		if r.pkg == "activity" {
			return goType{Expr: "int64", Shape: shapeScalar}, nil
		}
		return goType{Expr: "int", Shape: shapeScalar}, nil
	case "number":
		return goType{Expr: "float64", Shape: shapeScalar}, nil
	case "boolean":
		return goType{Expr: "bool", Shape: shapeScalar}, nil
	case "array":
		if s.Items == nil {
			return goType{}, fmt.Errorf("an array without items")
		}
		elem, err := r.typeOf(s.Items)
		if err != nil {
			return goType{}, err
		}
		return goType{Expr: "[]" + elem.Expr, Shape: shapeSlice, Enum: elem.Enum, Named: elem.Named}, nil
	}
	return goType{}, fmt.Errorf("unsupported type %q (add it to the generator, app/protocol/internal/gen)", types[0])
}

func hasType(s *Schema, name string) bool {
	for _, t := range s.Types() {
		if t == name {
			return true
		}
	}
	return false
}

// optionalExpr is how an optional field is held in a request or reply struct: numbers that may be zero and
// structs behind a pointer, so "absent" and "zero" stay apart (a history page "before 0" is not "the newest
// page"); a number that must be positive, a boolean or a string as a value (omitempty loses nothing there).
func optionalExpr(t goType, s *Schema) string {
	positive := s.ExclusiveMinimum != nil && *s.ExclusiveMinimum >= 0 || s.Minimum != nil && *s.Minimum > 0
	if t.Shape == shapeStruct || (t.Shape == shapeScalar && t.Expr != "bool" && !positive) {
		return "*" + t.Expr
	}
	return t.Expr
}

// flatExpr is how a field is held in the flat activity.Event: anything whose zero value is a valid value
// (numbers, booleans, structs) behind a pointer, because most kinds do not carry the field at all.
func flatExpr(t goType) string {
	if t.Shape == shapeStruct || t.Shape == shapeScalar {
		return "*" + t.Expr
	}
	return t.Expr
}
