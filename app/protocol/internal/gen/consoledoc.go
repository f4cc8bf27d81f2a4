package gen

import (
	"encoding/json"
	"fmt"
	"strings"
)

// APIDocPath is the console API's document; the call and push tables between its markers are generated.
const APIDocPath = "app/console/API.md"

// The markers around each generated table (HTML comments, invisible in rendered Markdown).
var apiDocTables = []struct{ name string }{{"calls"}, {"pushes"}}

func beginMarker(name string) string {
	return fmt.Sprintf("<!-- BEGIN GENERATED %s: scripts/gen-protocol from console.json; do not edit -->", name)
}

func endMarker(name string) string { return fmt.Sprintf("<!-- END GENERATED %s -->", name) }

// APIDoc returns API.md with its generated tables rendered from console.json: the text between each pair of
// markers is replaced, the rest kept as written.
func APIDoc(apiMD, schemaJSON, consoleJSON []byte) ([]byte, error) {
	var doc Document
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		return nil, fmt.Errorf("read %s: %w", SchemaPath, err)
	}
	con, err := ParseConsole(consoleJSON)
	if err != nil {
		return nil, err
	}
	cells := &shapeCells{con: con, wire: &doc}
	out := string(apiMD)
	for _, t := range apiDocTables {
		var table string
		switch t.name {
		case "calls":
			table = callsTable(con, cells)
		case "pushes":
			table = pushesTable(con, cells)
		}
		begin, end := beginMarker(t.name), endMarker(t.name)
		i, j := strings.Index(out, begin), strings.Index(out, end)
		if i < 0 || j < i {
			return nil, fmt.Errorf("%s lacks the markers %q … %q", APIDocPath, begin, end)
		}
		out = out[:i+len(begin)] + "\n" + table + out[j:]
	}
	return []byte(out), nil
}

func callsTable(con *ConsoleDoc, cells *shapeCells) string {
	var b strings.Builder
	b.WriteString("| method | params | result | what it does |\n|---|---|---|---|\n")
	for _, c := range con.Calls {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", c.Method, cells.of(&c.Params), cells.of(&c.Result), c.Doc)
	}
	return b.String()
}

func pushesTable(con *ConsoleDoc, cells *shapeCells) string {
	var b strings.Builder
	b.WriteString("| push (WebSocket `type`) | payload | Wails event | what it says |\n|---|---|---|---|\n")
	for _, p := range con.Pushes {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` | %s |\n", p.Type, cells.of(&p.Payload), p.Wails, p.Doc)
	}
	return b.String()
}

// shapeCells renders a shape for the tables: its name and fields (optional ones with ?), so the table alone
// says what to send.
type shapeCells struct {
	con  *ConsoleDoc
	wire *Document
}

func (c *shapeCells) of(s *Schema) string {
	if hasType(s, "array") && s.Items != nil {
		return c.of(s.Items) + " (a list)"
	}
	if name, ok := strings.CutPrefix(s.Ref, localRefPrefix); ok {
		return fieldList(name, c.con.Defs[name])
	}
	name := strings.TrimPrefix(s.Ref, wireRefPrefix)
	if name == "Event" {
		return "`Event` (PROTOCOL.md)"
	}
	return fieldList(name, c.wire.Defs[name]) + " (the sidecar's)"
}

func fieldList(name string, def *Schema) string {
	if def == nil || len(def.Properties) == 0 {
		return "`{}`"
	}
	fields := make([]string, 0, len(def.Properties))
	for _, p := range def.Properties {
		if def.IsRequired(p.Name) {
			fields = append(fields, p.Name)
		} else {
			fields = append(fields, p.Name+"?")
		}
	}
	return fmt.Sprintf("`%s {%s}`", name, strings.Join(fields, ", "))
}
