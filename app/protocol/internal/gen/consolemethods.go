package gen

import (
	"fmt"
	"strings"
)

// consoleMethodsFile renders the call set: the names, the error codes, the pushes, the Handlers interface every
// call's handler belongs to (*API must implement it, or the package does not compile) and the dispatch table.
func consoleMethodsFile(doc *Document, con *ConsoleDoc) (string, error) {
	defs, err := activityDefs(doc)
	if err != nil {
		return "", err
	}
	c := &consoleResolver{con: con, wire: &resolver{doc: doc, activity: defs, pkg: "console"}}
	var b strings.Builder
	b.WriteString("// MethodNames is the console API's call set (console.json), in its order; Methods serves exactly these.\n")
	b.WriteString("var MethodNames = []string{\n")
	for _, m := range con.Calls {
		fmt.Fprintf(&b, "\t%q,\n", m.Method)
	}
	b.WriteString("}\n\n")
	codes := con.Defs[strings.TrimPrefix(con.ErrorCodes.Ref, localRefPrefix)]
	if codes == nil || len(codes.Enum) == 0 {
		return "", fmt.Errorf("console.json x-error-codes names no enum")
	}
	b.WriteString("// Error codes of the console API (console.json): a failed call carries one.\nconst (\n")
	for _, code := range codes.Enum {
		fmt.Fprintf(&b, "\tCode%s = %q\n", GoName(code), code)
	}
	b.WriteString(")\n\n// ErrorCodes are the codes a failed call may carry.\nvar ErrorCodes = []string{")
	for i, code := range codes.Enum {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "Code%s", GoName(code))
	}
	b.WriteString("}\n\n// PushNames are what the host pushes unasked (the WebSocket messages' types), in console.json's order.\nvar PushNames = []string{")
	for i, p := range con.Pushes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", p.Type)
	}
	b.WriteString("}\n\n")
	if err := handlersDecl(&b, c); err != nil {
		return "", err
	}
	// On *API rather than Handlers: a nil *API still lists the methods (the fuzz test reads the names so).
	b.WriteString("// Methods maps the API's wire names to their handlers, each decoding its own params type (the WebSocket\n")
	b.WriteString("// transport's dispatch).\nfunc Methods(a *API) map[string]Method {\n\treturn map[string]Method{\n")
	for _, m := range con.Calls {
		fmt.Fprintf(&b, "\t\t%q: method(a.%s),\n", m.Method, GoName(m.Method))
	}
	b.WriteString("\t}\n}\n")
	return consoleHeader(b.String()), nil
}

// handlersDecl renders the Handlers interface: one method per call, named for it, from its params to its result.
func handlersDecl(b *strings.Builder, c *consoleResolver) error {
	b.WriteString("// Handlers serves the console API, one method per call (console.json). *API implements it, and the\n")
	b.WriteString("// window binds those methods: a call added to the contract without its handler does not compile.\n")
	b.WriteString("type Handlers interface {\n")
	for _, m := range c.con.Calls {
		params, err := c.refName(&m.Params)
		if err != nil {
			return fmt.Errorf("%s params: %w", m.Method, err)
		}
		result, err := c.refName(&m.Result)
		if err != nil {
			return fmt.Errorf("%s result: %w", m.Method, err)
		}
		fmt.Fprintf(b, "\t// %s: %s\n\t%s(%s) (%s, error)\n", m.Method, m.Doc, GoName(m.Method), params, result)
	}
	b.WriteString("}\n\nvar _ Handlers = (*API)(nil)\n\n")
	return nil
}
