package gen

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// terminalPath is the CLI's per-kind terminal lines, generated from each kind's `terminal` in wire.schema.json
// (sidecar/src/protocol/kindMeta.ts, which documents the template language).
const terminalPath = "app/cli/terminal_gen.go"

// terminalMeta is one kind's `terminal`: lines printed when their test holds, or nothing (quiet), or hand-written
// output in app/cli/transcript.go (byHand).
type terminalMeta struct {
	Lines  []terminalLine               `json:"lines"`
	Words  map[string]map[string]string `json:"words"`
	Quiet  string                       `json:"quiet"`
	ByHand string                       `json:"byHand"`
}

type terminalLine struct {
	Text    string `json:"text"`
	When    string `json:"when"`
	Each    string `json:"each"`
	History bool   `json:"history"`
}

type terminalEntry struct {
	Kind     string       `json:"kind"`
	Terminal terminalMeta `json:"terminal"`
}

// termScope resolves a template's field paths to Go expressions: the event's flat fields, or a list item's.
type termScope struct {
	r      *resolver
	fields map[string]goType // value-form types
	base   string            // "ev" or the loop variable
	flat   bool              // the flat event: scalars and structs are pointers there
	words  map[string]map[string]string
	kind   string
}

// termValue is a resolved path: expr (pointer when ptr), its value type, and the nil checks it needs first.
type termValue struct {
	expr   string
	t      goType
	ptr    bool
	guards []string
}

func terminalFile(doc *Document, schemaJSON []byte) (string, error) {
	var raw struct {
		Events []terminalEntry `json:"x-events"`
	}
	if err := json.Unmarshal(schemaJSON, &raw); err != nil {
		return "", fmt.Errorf("read x-events terminal: %w", err)
	}
	defs, err := activityDefs(doc)
	if err != nil {
		return "", err
	}
	r := &resolver{doc: doc, activity: defs, pkg: "activity"}
	infos, err := collectKinds(doc)
	if err != nil {
		return "", err
	}
	flat, err := flatFields(r, infos)
	if err != nil {
		return "", err
	}
	kindFields := map[string]map[string]goType{}
	for _, k := range infos {
		// The envelope's text fields read like any other.
		kindFields[k.Entry.Kind] = map[string]goType{"session": {Expr: "string"}, "turn": {Expr: "string"}}
	}
	for _, f := range flat {
		for _, k := range f.Kinds {
			kindFields[k][f.Name] = f.Type
		}
	}
	var b, vars strings.Builder
	b.WriteString(header)
	b.WriteString("package cli\n\nimport \"github.com/baton-console/baton/app/activity\"\n\n")
	b.WriteString("// terminalText is how baton exec and baton history print one event (kindMeta.ts, `terminal`): \"\" for a quiet\n")
	b.WriteString("// kind. history: the lines only `baton history` prints. Streaming text is transcript.go's (byHand).\n")
	b.WriteString("func terminalText(ev activity.Event, history bool) string {\n\tvar b []byte\n\tswitch ev.Kind {\n")
	for _, e := range raw.Events {
		scope := &termScope{r: r, fields: kindFields[e.Kind], base: "ev", flat: true, words: e.Terminal.Words, kind: e.Kind}
		body, err := kindCase(scope, &e.Terminal, &vars)
		if err != nil {
			return "", fmt.Errorf("%s: terminal: %w", e.Kind, err)
		}
		fmt.Fprintf(&b, "\tcase activity.%s:\n%s", GoName(e.Kind), body)
	}
	b.WriteString("\t}\n\treturn string(b)\n}\n\n")
	b.WriteString(vars.String())
	return b.String(), nil
}

func kindCase(s *termScope, m *terminalMeta, vars *strings.Builder) (string, error) {
	if m.Quiet == "" && m.ByHand == "" && len(m.Lines) == 0 {
		return "", fmt.Errorf("no lines, quiet or byHand")
	}
	var b strings.Builder
	if m.Quiet != "" {
		fmt.Fprintf(&b, "\t\t// Quiet: %s.\n", m.Quiet)
	}
	if m.ByHand != "" {
		fmt.Fprintf(&b, "\t\t// By hand (transcript.go): %s.\n", m.ByHand)
	}
	for _, field := range sortedKeys(keysOf(m.Words)) {
		if err := s.sayVar(vars, field); err != nil {
			return "", err
		}
	}
	for _, line := range m.Lines {
		code, err := lineCode(s, line)
		if err != nil {
			return "", fmt.Errorf("line %q: %w", line.Text, err)
		}
		b.WriteString(code)
	}
	return b.String(), nil
}

func keysOf(m map[string]map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// sayVar declares the words table of one field (`say`), checking its keys against the field's enum.
func (s *termScope) sayVar(vars *strings.Builder, field string) error {
	v, err := s.lookup(field)
	if err != nil {
		// The table may be for an item field of an `each` line: checked when that line resolves it.
		v = termValue{}
	}
	if v.t.Enum != "" {
		allowed := map[string]bool{"*": true}
		for _, e := range s.r.doc.Defs[v.t.Enum].Enum {
			allowed[e] = true
		}
		for k := range s.words[field] {
			if !allowed[k] {
				return fmt.Errorf("words.%s: %q is not a %s", field, k, v.t.Enum)
			}
		}
	}
	fmt.Fprintf(vars, "var %s = map[string]string{", s.sayName(field))
	keys := make([]string, 0, len(s.words[field]))
	for k := range s.words[field] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 {
			vars.WriteString(", ")
		}
		fmt.Fprintf(vars, "%q: %q", k, s.words[field][k])
	}
	vars.WriteString("}\n\n")
	return nil
}

func (s *termScope) sayName(field string) string {
	return "say" + GoName(s.kind) + GoName(field)
}

func lineCode(s *termScope, line terminalLine) (string, error) {
	conds, err := s.conditions(line.When)
	if err != nil {
		return "", err
	}
	if line.History {
		conds = append([]string{"history"}, conds...)
	}
	indent := "\t\t"
	inner := s
	var loop string
	if line.Each != "" {
		list, err := s.lookup(line.Each)
		if err != nil {
			return "", err
		}
		if list.t.Shape != shapeSlice || list.t.Named == "" {
			return "", fmt.Errorf("each %s: not a list of objects", line.Each)
		}
		inner = s.itemScope(list.t.Named)
		loop = fmt.Sprintf("for _, it := range %s {\n", list.expr)
	}
	text, guards, err := inner.textExpr(line.Text + "\n")
	if err != nil {
		return "", err
	}
	write := fmt.Sprintf("b = append(b, %s...)\n", text)
	guards = unguarded(guards, conds)
	if len(guards) > 0 {
		write = fmt.Sprintf("if %s {\n%s}\n", strings.Join(guards, " && "), write)
	}
	if loop != "" {
		write = loop + write + "}\n"
	}
	if len(conds) > 0 {
		write = fmt.Sprintf("if %s {\n%s}\n", strings.Join(conds, " && "), write)
	}
	return indent + strings.ReplaceAll(strings.TrimSuffix(write, "\n"), "\n", "\n"+indent) + "\n", nil
}

// unguarded drops the nil checks a line's own test already makes first.
func unguarded(guards, conds []string) []string {
	var out []string
	for _, g := range guards {
		covered := false
		for _, c := range conds {
			covered = covered || strings.HasPrefix(c, g)
		}
		if !covered {
			out = append(out, g)
		}
	}
	return out
}

func (s *termScope) itemScope(def string) *termScope {
	fields := map[string]goType{}
	for _, p := range s.r.doc.Defs[def].Properties {
		if t, err := s.r.typeOf(p.Schema); err == nil {
			fields[p.Name] = t
		}
	}
	return &termScope{r: s.r, fields: fields, base: "it", words: s.words, kind: s.kind}
}

// lookup resolves `field` or `field.sub`.
func (s *termScope) lookup(path string) (termValue, error) {
	head, sub, nested := strings.Cut(path, ".")
	t, ok := s.fields[head]
	if !ok {
		return termValue{}, fmt.Errorf("no field %q", head)
	}
	v := termValue{expr: s.base + "." + GoName(head), t: t, ptr: s.flat && (t.Shape == shapeScalar || t.Shape == shapeStruct)}
	if !nested {
		return v, nil
	}
	if t.Shape != shapeStruct {
		return termValue{}, fmt.Errorf("%s is not an object", head)
	}
	def := s.r.doc.Defs[t.Named]
	for _, p := range def.Properties {
		if p.Name != sub {
			continue
		}
		st, err := s.r.typeOf(p.Schema)
		if err != nil {
			return termValue{}, err
		}
		optional := !def.IsRequired(p.Name)
		ptr := optional && optionalExpr(st, p.Schema) != st.Expr
		return termValue{expr: v.expr + "." + GoName(sub), t: st, ptr: ptr, guards: []string{v.expr + " != nil"}}, nil
	}
	return termValue{}, fmt.Errorf("%s has no field %q", head, sub)
}

// truthy is the Go test for a path's plain `when` atom: present, non-empty, true.
func truthy(v termValue) string {
	var test string
	switch {
	case v.ptr && v.t.Expr == "bool":
		test = fmt.Sprintf("%s != nil && *%s", v.expr, v.expr)
	case v.ptr:
		test = v.expr + " != nil"
	case v.t.Shape == shapeString:
		test = v.expr + ` != ""`
	case v.t.Shape == shapeSlice || v.t.Shape == shapeRaw:
		test = fmt.Sprintf("len(%s) > 0", v.expr)
	case v.t.Expr == "bool":
		test = v.expr
	default:
		test = v.expr + " != 0"
	}
	return strings.Join(append(append([]string{}, v.guards...), test), " && ")
}

func (s *termScope) conditions(when string) ([]string, error) {
	if strings.TrimSpace(when) == "" {
		return nil, nil
	}
	var out []string
	for _, atom := range strings.Split(when, " && ") {
		atom = strings.TrimSpace(atom)
		if path, value, ok := strings.Cut(atom, " == "); ok {
			c, err := s.compare(path, value, "==")
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			continue
		}
		if path, value, ok := strings.Cut(atom, " != "); ok {
			c, err := s.compare(path, value, "!=")
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			continue
		}
		negate := strings.HasPrefix(atom, "!")
		v, err := s.lookup(strings.TrimPrefix(atom, "!"))
		if err != nil {
			return nil, err
		}
		if negate {
			out = append(out, negation(truthy(v)))
		} else {
			out = append(out, truthy(v))
		}
	}
	return out, nil
}

// negation reads `x == ""` or `x == nil` for a single test, else `!(…)`.
func negation(test string) string {
	if !strings.Contains(test, "&&") {
		for _, ne := range []string{` != ""`, " != nil"} {
			if strings.HasSuffix(test, ne) {
				return strings.TrimSuffix(test, ne) + strings.Replace(ne, "!=", "==", 1)
			}
		}
	}
	return "!(" + test + ")"
}

func (s *termScope) compare(path, value, op string) (string, error) {
	v, err := s.lookup(strings.TrimSpace(path))
	if err != nil {
		return "", err
	}
	value = strings.TrimSpace(value)
	if v.t.Shape != shapeString || v.ptr {
		return "", fmt.Errorf("%s %s: only text fields compare", path, op)
	}
	if v.t.Enum != "" && !contains(s.r.doc.Defs[v.t.Enum].Enum, value) {
		return "", fmt.Errorf("%s %s %s: %q is not a %s", path, op, value, value, v.t.Enum)
	}
	test := fmt.Sprintf("%s %s %q", v.expr, op, value)
	return strings.Join(append(append([]string{}, v.guards...), test), " && "), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// textExpr turns a template into one Go string expression, and the nil checks its nested fields need.
func (s *termScope) textExpr(tmpl string) (string, []string, error) {
	var parts, guards []string
	for tmpl != "" {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			parts = append(parts, strconv.Quote(tmpl))
			break
		}
		if open > 0 {
			parts = append(parts, strconv.Quote(tmpl[:open]))
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			return "", nil, fmt.Errorf("a { without its }")
		}
		expr, g, err := s.placeholder(tmpl[open+1 : open+end])
		if err != nil {
			return "", nil, err
		}
		parts = append(parts, expr)
		for _, x := range g {
			if !contains(guards, x) {
				guards = append(guards, x)
			}
		}
		tmpl = tmpl[open+end+1:]
	}
	return strings.Join(parts, " + "), guards, nil
}

func (s *termScope) placeholder(spec string) (string, []string, error) {
	items := strings.Split(spec, "|")
	v, err := s.lookup(items[0])
	if err != nil {
		return "", nil, err
	}
	expr := textOf(v)
	for _, f := range items[1:] {
		name, arg, _ := strings.Cut(f, "=")
		switch name {
		case "line", "tail":
			n, err := strconv.Atoi(arg)
			if err != nil || n < 1 {
				return "", nil, fmt.Errorf("%s needs a count: %q", name, f)
			}
			fn := map[string]string{"line": "oneLine", "tail": "indentTail"}[name]
			expr = fmt.Sprintf("%s(%s, %d)", fn, expr, n)
		case "words":
			expr = fmt.Sprintf("termWords(%s)", expr)
		case "quote":
			expr = fmt.Sprintf("termQuote(%s)", expr)
		case "lead":
			expr = fmt.Sprintf("suffix(%q, %s)", arg, expr)
		case "say":
			field := items[0][strings.LastIndexByte(items[0], '.')+1:]
			if s.words[field] == nil {
				return "", nil, fmt.Errorf("say: no words table for %s", field)
			}
			expr = fmt.Sprintf("termSay(%s, %s)", s.sayName(field), expr)
		default:
			return "", nil, fmt.Errorf("unknown filter %q", f)
		}
	}
	return expr, v.guards, nil
}

// textOf is a value as text: a number or boolean behind a pointer reads "" when absent.
func textOf(v termValue) string {
	switch {
	case v.ptr || v.t.Shape == shapeNullable:
		return fmt.Sprintf("termPointer(%s)", v.expr)
	case v.t.Expr == "string":
		return v.expr
	case v.t.Shape == shapeString || v.t.Shape == shapeRaw:
		return fmt.Sprintf("string(%s)", v.expr)
	default:
		return fmt.Sprintf("termValue(%s)", v.expr)
	}
}
