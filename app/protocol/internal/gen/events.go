package gen

import (
	"fmt"
	"strings"
)

// envelope are the fields every event has; the flat struct declares them by hand-kept rules, not per kind.
var envelope = map[string]bool{"kind": true, "session": true, "turn": true, "time": true, "ephemeral": true}

// flatField is one field of the flat activity.Event: the union of every kind's fields. One JSON name has one
// type across kinds (PROTOCOL.md); the generator refuses a schema that breaks that.
type flatField struct {
	Name  string
	Go    string // Go field name
	Type  goType // the type as one kind declares it (value form)
	Flat  string // the type in the flat struct
	Kinds []string
}

type kindInfo struct {
	Entry  EventEntry
	Schema *Schema
}

func collectKinds(doc *Document) ([]kindInfo, error) {
	var kinds []kindInfo
	for _, ev := range doc.Events {
		s, err := doc.Def(strings.TrimPrefix(ev.Ref, "#/$defs/"))
		if err != nil {
			return nil, fmt.Errorf("event %s: %w", ev.Kind, err)
		}
		kinds = append(kinds, kindInfo{Entry: ev, Schema: s})
	}
	return kinds, nil
}

func flatFields(r *resolver, kinds []kindInfo) ([]*flatField, error) {
	var order []*flatField
	byName := map[string]*flatField{}
	for _, k := range kinds {
		for _, p := range k.Schema.Properties {
			if envelope[p.Name] {
				continue
			}
			t, err := r.typeOf(p.Schema)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", k.Entry.Kind, p.Name, err)
			}
			f, ok := byName[p.Name]
			if !ok {
				f = &flatField{Name: p.Name, Go: GoName(p.Name), Type: t}
				byName[p.Name] = f
				order = append(order, f)
			} else if f.Type.Expr != t.Expr {
				// Two enums (or an enum and a string) under one name: the field is a string, each kind checks its set.
				if f.Type.Shape != shapeString || t.Shape != shapeString {
					return nil, fmt.Errorf("field %q is %s in %s but %s in %s: one field name must have one JSON type across kinds",
						p.Name, f.Type.Expr, strings.Join(f.Kinds, ", "), t.Expr, k.Entry.Kind)
				}
				f.Type = goType{Expr: "string", Shape: shapeString}
			}
			f.Kinds = append(f.Kinds, k.Entry.Kind)
		}
	}
	for _, f := range order {
		f.Flat = flatExpr(f.Type)
	}
	return order, nil
}

// activityFiles renders package activity's generated files: the enums, the kinds with the flat Event and the
// per-kind specs, and the per-kind encoding and value checks (three files, so none grows past the size rule).
func activityFiles(doc *Document) (enums, kinds, codec, checks string, err error) {
	defs, err := activityDefs(doc)
	if err != nil {
		return "", "", "", "", err
	}
	r := &resolver{doc: doc, activity: defs, pkg: "activity"}
	infos, err := collectKinds(doc)
	if err != nil {
		return "", "", "", "", err
	}
	fields, err := flatFields(r, infos)
	if err != nil {
		return "", "", "", "", err
	}
	byName := map[string]*flatField{}
	for _, f := range fields {
		byName[f.Name] = f
	}

	var e strings.Builder
	e.WriteString(header)
	e.WriteString("package activity\n\n")
	for _, name := range doc.EnumNames() {
		enumDecl(&e, name, doc.Defs[name].Enum)
	}

	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package activity\n\nimport (\n\t\"encoding/json\"\n\t\"time\"\n)\n\n")
	fmt.Fprintf(&b, "// WireVersion is the sidecar protocol version the schema describes.\nconst WireVersion = %d\n\n", doc.Version)
	b.WriteString("// Event kinds (wire.schema.json x-events).\nconst (\n")
	for _, k := range infos {
		fmt.Fprintf(&b, "\t%s Kind = %q // made by the %s\n", GoName(k.Entry.Kind), k.Entry.Kind, k.Entry.Origin)
	}
	b.WriteString(")\n\n// Kinds lists every kind of the wire, in the schema's order.\nvar Kinds = []Kind{")
	for i, k := range infos {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(GoName(k.Entry.Kind))
	}
	b.WriteString("}\n\n// String returns the wire name.\nfunc (k Kind) String() string { return string(k) }\n\n")
	var nested []string
	for _, name := range sortedKeys(defs) {
		s := doc.Defs[name]
		if name == "Json" || name == "Event" || len(s.Enum) > 0 || strings.HasSuffix(name, "Event") {
			continue
		}
		nested = append(nested, name)
		if err := structDecl(&b, r, name, "is a nested object of the wire.", s); err != nil {
			return "", "", "", "", err
		}
	}
	b.WriteString("// Event is one normalized activity event. It is flat because the wire is flat (app/protocol/PROTOCOL.md):\n")
	b.WriteString("// each field name has one JSON type across all kinds, and a kind uses the fields its schema names. Numbers,\n")
	b.WriteString("// booleans and objects are pointers so that \"absent\" differs from zero; MarshalJSON writes exactly the\n")
	b.WriteString("// kind's fields, required ones even when empty.\ntype Event struct {\n")
	b.WriteString("\tKind      Kind      `json:\"kind\"`\n\tSession   string    `json:\"session\"`\n\tTurn      string    `json:\"turn,omitempty\"`\n")
	b.WriteString("\tSeq       uint64    `json:\"seq,omitempty\"` // added by the host when it delivers the event\n")
	b.WriteString("\tTime      time.Time `json:\"time\"`\n\tEphemeral bool      `json:\"ephemeral,omitempty\"`\n\n")
	for _, f := range fields {
		tag := "omitempty"
		if f.Type.Shape == shapeSlice {
			tag = "omitzero"
		}
		fmt.Fprintf(&b, "\t%s %s `json:\"%s,%s\"` // %s\n", f.Go, f.Flat, f.Name, tag, strings.Join(f.Kinds, ", "))
	}
	b.WriteString("}\n\n")
	kindSpecs(&b, infos)
	if !strings.Contains(b.String(), "json.RawMessage") {
		return "", "", "", "", fmt.Errorf("the flat event holds no JSON value; drop the encoding/json import from the generator")
	}

	// The encoding and the value checks are two files: together they outgrow one (production files <= 800 lines).
	var c strings.Builder
	if err := marshalers(&c, r, infos, byName); err != nil {
		return "", "", "", "", err
	}
	var v strings.Builder
	if err := valueChecks(&v, r, infos, byName, nested); err != nil {
		return "", "", "", "", err
	}
	return e.String(), b.String(), goFile(c.String()), goFile(v.String()), nil
}

// goFile puts the header, the package clause and the imports the body uses before a body of package activity.
func goFile(body string) string {
	var imports []string
	for _, pkg := range []string{"encoding/json", "errors", "fmt", "time"} {
		if strings.Contains(body, pkg[strings.LastIndex(pkg, "/")+1:]+".") {
			imports = append(imports, fmt.Sprintf("\t%q\n", pkg))
		}
	}
	return header + "package activity\n\nimport (\n" + strings.Join(imports, "") + ")\n\n" + body
}

// kindSpecs renders the per-kind field sets strict decoding checks against.
func kindSpecs(b *strings.Builder, kinds []kindInfo) {
	b.WriteString("// kindSpec is what one kind may and must carry on the wire.\ntype kindSpec struct {\n")
	b.WriteString("\thostMade bool            // the host makes it; the sidecar never sends it\n")
	b.WriteString("\tfields   map[string]bool // every field the kind may carry; true when required\n}\n\n")
	b.WriteString("var kindSpecs = map[Kind]kindSpec{\n")
	for _, k := range kinds {
		fmt.Fprintf(b, "\t%s: {hostMade: %t, fields: map[string]bool{", GoName(k.Entry.Kind), k.Entry.Origin == "host")
		for i, p := range k.Schema.Properties {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q: %t", p.Name, k.Schema.IsRequired(p.Name))
		}
		b.WriteString("}},\n")
	}
	b.WriteString("}\n\n")
}

// marshalers renders one wire struct per kind and the MarshalJSON that picks it: only the kind's fields, the
// required ones written even when empty (an empty text, plan or palette reaches the console as such).
func marshalers(b *strings.Builder, r *resolver, kinds []kindInfo, byName map[string]*flatField) error {
	for _, k := range kinds {
		name := "wire" + GoName(k.Entry.Kind)
		fmt.Fprintf(b, "type %s struct {\n\tKind Kind `json:\"kind\"`\n\tSession string `json:\"session\"`\n\tTurn string `json:\"turn,omitempty\"`\n\tSeq uint64 `json:\"seq,omitempty\"`\n\tTime time.Time `json:\"time\"`\n", name)
		if k.Schema.IsRequired("ephemeral") {
			b.WriteString("\tEphemeral bool `json:\"ephemeral\"`\n")
		} else {
			b.WriteString("\tEphemeral bool `json:\"ephemeral,omitempty\"`\n")
		}
		for _, p := range k.Schema.Properties {
			if envelope[p.Name] {
				continue
			}
			f := byName[p.Name]
			if k.Schema.IsRequired(p.Name) {
				fmt.Fprintf(b, "\t%s %s `json:%q`\n", f.Go, strings.TrimPrefix(f.Flat, "*"), p.Name)
			} else {
				fmt.Fprintf(b, "\t%s %s `json:\"%s,omitempty\"`\n", f.Go, f.Flat, p.Name)
			}
		}
		b.WriteString("}\n\n")
	}
	b.WriteString("// MarshalJSON writes the fields of e's kind (an unknown kind: every non-empty field).\nfunc (e Event) MarshalJSON() ([]byte, error) {\n\tswitch e.Kind {\n")
	for _, k := range kinds {
		fmt.Fprintf(b, "\tcase %s:\n\t\treturn json.Marshal(wire%s{Kind: e.Kind, Session: e.Session, Turn: e.Turn, Seq: e.Seq, Time: e.Time, Ephemeral: e.Ephemeral", GoName(k.Entry.Kind), GoName(k.Entry.Kind))
		for _, p := range k.Schema.Properties {
			if envelope[p.Name] {
				continue
			}
			f := byName[p.Name]
			value := "e." + f.Go
			if k.Schema.IsRequired(p.Name) {
				switch {
				case strings.HasPrefix(f.Flat, "*"):
					value = "deref(e." + f.Go + ")"
				case f.Type.Shape == shapeSlice:
					value = "nonNil(e." + f.Go + ")"
				case f.Type.Shape == shapeRaw:
					value = "rawOrNull(e." + f.Go + ")"
				}
			}
			fmt.Fprintf(b, ", %s: %s", f.Go, value)
		}
		b.WriteString("})\n")
	}
	b.WriteString("\t}\n\ttype plain Event\n\treturn json.Marshal(plain(e))\n}\n\n")
	b.WriteString("func deref[T any](p *T) T {\n\tvar zero T\n\tif p == nil {\n\t\treturn zero\n\t}\n\treturn *p\n}\n\n")
	b.WriteString("func nonNil[T any](s []T) []T {\n\tif s == nil {\n\t\treturn []T{}\n\t}\n\treturn s\n}\n\n")
	b.WriteString("func rawOrNull(r json.RawMessage) json.RawMessage {\n\tif len(r) == 0 {\n\t\treturn json.RawMessage(\"null\")\n\t}\n\treturn r\n}\n\n")
	return nil
}

// valueChecks renders checkValues: what the kind's schema says of a value beyond which keys it has (DecodeEvent
// checks those): enum fields hold a value the schema names, a required string with a minimum length is not empty,
// a required number, object or list is not null, and a field the schema fixes to true is true. It also runs on
// events the host builds itself (Validate), where there are no keys to check.
func valueChecks(b *strings.Builder, r *resolver, kinds []kindInfo, byName map[string]*flatField, nested []string) error {
	b.WriteString("// checkValues reports a field whose value is not one its kind's schema allows (enums, empty strings, nulls,\n")
	b.WriteString("// constants; nested objects too).\nfunc (e Event) checkValues() error {\n\tswitch e.Kind {\n")
	for _, k := range kinds {
		var lines []string
		for _, p := range k.Schema.Properties {
			line, err := fieldCheck(r, k, p, byName)
			if err != nil {
				return err
			}
			if line != "" {
				lines = append(lines, line)
			}
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(b, "\tcase %s:\n%s", GoName(k.Entry.Kind), strings.Join(lines, ""))
	}
	b.WriteString("\t}\n\treturn nil\n}\n\n")
	for _, name := range nested {
		if !hasChecks(r.doc, name) {
			continue
		}
		fmt.Fprintf(b, "func (v %s) checkValues() error {\n", name)
		s := r.doc.Defs[name]
		for _, p := range s.Properties {
			t, err := r.typeOf(p.Schema)
			if err != nil {
				return err
			}
			field, required := "v."+GoName(p.Name), s.IsRequired(p.Name)
			switch {
			case t.Shape == shapeString && t.Enum != "":
				cond := "!" + field + ".Valid()"
				if !required {
					cond = field + " != \"\" && " + cond
				}
				fmt.Fprintf(b, "\tif %s {\n\t\treturn fmt.Errorf(\"%s %%q\", %s)\n\t}\n", cond, p.Name, field)
			case t.Shape == shapeString && required && nonEmpty(p.Schema):
				fmt.Fprintf(b, "\tif %s == \"\" {\n\t\treturn errors.New(\"an empty %s\")\n\t}\n", field, p.Name)
			}
		}
		b.WriteString("\treturn nil\n}\n\n")
	}
	return nil
}

// fieldCheck renders the check of one property of a kind ("" when its schema asks nothing a decoded value shows).
func fieldCheck(r *resolver, k kindInfo, p Property, byName map[string]*flatField) (string, error) {
	kind, required := k.Entry.Kind, k.Schema.IsRequired(p.Name)
	fail := func(cond, format string, args ...string) string {
		if len(args) == 0 {
			return fmt.Sprintf("\t\tif %s {\n\t\t\treturn errors.New(%q)\n\t\t}\n", cond, format)
		}
		return fmt.Sprintf("\t\tif %s {\n\t\t\treturn fmt.Errorf(%q, %s)\n\t\t}\n", cond, format, strings.Join(args, ", "))
	}
	each := func() string { // the elements of a list of named objects
		return fmt.Sprintf("\t\tfor i, v := range %s {\n%s\t\t}\n", field(byName, p),
			indent(fail("err := v.checkValues(); err != nil", kind+" "+p.Name+"[%d]: %w", "i", "err")))
	}
	if envelope[p.Name] {
		// Of the envelope, only what a kind may tighten: a session it requires non-empty, ephemeral fixed to true.
		switch {
		case p.Name == "session" && nonEmpty(p.Schema):
			return fail(`e.Session == ""`, kind+" event without a session"), nil
		case p.Name == "ephemeral" && required && string(p.Schema.Const) == "true":
			return fail("!e.Ephemeral", kind+" must be ephemeral"), nil
		}
		return "", nil
	}
	t, err := r.typeOf(p.Schema)
	if err != nil {
		return "", err
	}
	f := byName[p.Name]
	field := field(byName, p)
	checked := t.Named != "" && hasChecks(r.doc, t.Named)
	switch {
	case t.Shape == shapeString && t.Enum != "":
		value := field
		if f.Type.Enum != t.Enum {
			value = t.Enum + "(" + field + ")"
		}
		cond := "!" + value + ".Valid()"
		if !required {
			cond = field + ` != "" && ` + cond
		}
		return fail(cond, kind+" with "+p.Name+" %q", field), nil
	case t.Shape == shapeString && required && nonEmpty(p.Schema):
		return fail(field+` == ""`, kind+" event with an empty "+p.Name), nil
	case required && (strings.HasPrefix(f.Flat, "*") || t.Shape == shapeSlice):
		// A required number, object or list decodes to nil only from an explicit null, which its schema refuses.
		check := fail(field+" == nil", kind+" event without "+p.Name)
		switch {
		case checked && t.Shape == shapeStruct:
			check += fail("err := "+field+".checkValues(); err != nil", kind+" "+p.Name+": %w", "err")
		case checked && t.Shape == shapeSlice:
			check += each()
		}
		return check, nil
	case checked && t.Shape == shapeStruct:
		return fmt.Sprintf("\t\tif %s != nil {\n%s\t\t}\n", field,
			indent(fail("err := "+field+".checkValues(); err != nil", kind+" "+p.Name+": %w", "err"))), nil
	case checked && t.Shape == shapeSlice:
		return each(), nil
	}
	return "", nil
}

// field is the flat event's field for a kind's property.
func field(byName map[string]*flatField, p Property) string { return "e." + byName[p.Name].Go }

func indent(lines string) string {
	return "\t" + strings.ReplaceAll(strings.TrimSuffix(lines, "\n"), "\n", "\n\t") + "\n"
}

// nonEmpty reports whether a string schema refuses the empty string.
func nonEmpty(s *Schema) bool { return s.MinLength != nil && *s.MinLength > 0 }

// hasChecks reports whether a named object has a field checkValues checks: an enum, or a required string that
// must not be empty (nesting deeper is not used by the wire).
func hasChecks(doc *Document, name string) bool {
	s := doc.Defs[name]
	if s == nil {
		return false
	}
	for _, p := range s.Properties {
		if ref := p.Schema.RefName(); ref != "" && len(doc.Defs[ref].Enum) > 0 {
			return true
		}
		if s.IsRequired(p.Name) && nonEmpty(p.Schema) && hasType(p.Schema, "string") {
			return true
		}
	}
	return false
}
