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

// Go has no exhaustive switch, so this test is one: render's switch over kinds must name every kind of the wire
// (printing it or listing it among the quiet ones). A kind added to the schema fails here until the terminal
// transcript says what it does with it.
func TestTranscriptSwitchNamesEveryKind(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "transcript.go", nil, 0)
	require.NoError(t, err)
	named := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "render" {
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
	require.NotEmpty(t, named, "render's switch over kinds was not found")
	for _, k := range activity.Kinds {
		require.True(t, named[strings.ToLower(goKindName(k))], "transcript.go's render does not name %s (activity.%s): print it or list it as quiet", k, goKindName(k))
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
