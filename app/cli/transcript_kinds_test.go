package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/stretchr/testify/require"
)

// Go has no exhaustive switch, so this test is one: the terminal lines' switch over kinds (terminal_gen.go, generated
// from kindMeta.ts) must name every kind of the wire (printing it or saying it is quiet). A kind added to the schema
// fails here until scripts/gen-protocol has written its terminal line (and the sidecar's typecheck until kindMeta.ts
// has one).
func TestTranscriptSwitchNamesEveryKind(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "terminal_gen.go", nil, 0)
	require.NoError(t, err)
	named := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "terminalText" {
			return true
		}
		for _, stmt := range fn.Body.List {
			sw, ok := stmt.(*ast.SwitchStmt)
			if !ok {
				continue
			}
			for _, c := range sw.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					if sel, ok := e.(*ast.SelectorExpr); ok {
						named[strings.ToLower(sel.Sel.Name)] = true
					}
				}
			}
		}
		return false
	})
	require.NotEmpty(t, named, "terminalText's switch over kinds was not found")
	for _, k := range activity.Kinds {
		require.True(t, named[strings.ToLower(goKindName(k))], "terminal_gen.go's terminalText does not name %s (activity.%s): give it a terminal line in kindMeta.ts and run scripts/gen-protocol", k, goKindName(k))
	}
}

// goKindName is the generated constant's name up to the case of initialisms: "session.started" → "SessionStarted".
func goKindName(k activity.Kind) string {
	out := []byte{}
	upper := true
	for _, r := range []byte(k) {
		if r == '.' || r == '_' {
			upper = true
			continue
		}
		if upper && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		upper = false
		out = append(out, r)
	}
	return string(out)
}
