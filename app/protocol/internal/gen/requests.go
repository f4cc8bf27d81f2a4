package gen

import (
	"fmt"
	"sort"
	"strings"
)

// protocolFile renders the sidecar's request types with their payload and ok-reply structs.
func protocolFile(doc *Document) (string, error) {
	defs, err := activityDefs(doc)
	if err != nil {
		return "", err
	}
	r := &resolver{doc: doc, activity: defs, pkg: "protocol"}
	var body strings.Builder
	body.WriteString("// RequestType names a request (host → sidecar).\ntype RequestType string\n\n")
	body.WriteString("// Request types (wire.schema.json x-requests).\nconst (\n")
	for _, q := range doc.Requests {
		fmt.Fprintf(&body, "\tReq%s RequestType = %q\n", GoName(q.Type), q.Type)
	}
	body.WriteString(")\n\n// RequestTypes lists every request type, in the schema's order.\nvar RequestTypes = []RequestType{")
	for i, q := range doc.Requests {
		if i > 0 {
			body.WriteString(", ")
		}
		fmt.Fprintf(&body, "Req%s", GoName(q.Type))
	}
	body.WriteString("}\n\n// String returns the wire name.\nfunc (t RequestType) String() string { return string(t) }\n\n")

	// The error codes, under the names the host has always used.
	body.WriteString("// ErrorCode is an error reply's code.\ntype ErrorCode = activity.ErrorCode\n\n// Error codes shared with the sidecar.\nconst (\n")
	for _, v := range doc.Defs["ErrorCode"].Enum {
		fmt.Fprintf(&body, "\tCode%s = activity.ErrorCode%s\n", GoName(v), GoName(v))
	}
	body.WriteString(")\n\n")

	var own []string
	for name := range doc.Defs {
		if !defs[name] && name != "Event" && !strings.HasSuffix(name, "Request") && !strings.HasSuffix(name, "Reply") {
			own = append(own, name)
		}
	}
	sort.Strings(own)
	for _, name := range own {
		if err := structDecl(&body, r, name, "is a shape of the sidecar's replies.", doc.Defs[name]); err != nil {
			return "", err
		}
	}
	for _, q := range doc.Requests {
		for _, part := range []struct {
			ref  string
			what string
		}{{q.Payload.RefName(), fmt.Sprintf("is the payload of a %q request.", q.Type)}, {q.Reply.RefName(), fmt.Sprintf("is the ok reply's payload to a %q request.", q.Type)}} {
			s, err := doc.Def(part.ref)
			if err != nil {
				return "", err
			}
			if err := structDecl(&body, r, part.ref, part.what, s); err != nil {
				return "", err
			}
		}
		fmt.Fprintf(&body, "// RequestType names the request this payload belongs to.\nfunc (%sRequest) RequestType() RequestType { return Req%s }\n\n", GoName(q.Type), GoName(q.Type))
	}
	for _, fn := range []struct{ name, suffix, doc string }{
		{"NewRequest", "Request", "a new, empty payload value for a request of type t"},
		{"NewReply", "Reply", "a new, empty ok-reply payload value for a request of type t"},
	} {
		fmt.Fprintf(&body, "// %s returns %s (nil for a type the schema does not name), to decode into.\nfunc %s(t RequestType) any {\n\tswitch t {\n", fn.name, fn.doc, fn.name)
		for _, q := range doc.Requests {
			fmt.Fprintf(&body, "\tcase Req%s:\n\t\treturn &%s%s{}\n", GoName(q.Type), GoName(q.Type), fn.suffix)
		}
		body.WriteString("\t}\n\treturn nil\n}\n\n")
	}
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("package protocol\n\nimport (\n")
	if strings.Contains(body.String(), "json.RawMessage") {
		b.WriteString("\t\"encoding/json\"\n\n")
	}
	b.WriteString("\t\"github.com/baton-console/baton/app/activity\"\n)\n\n")
	b.WriteString(body.String())
	return b.String(), nil
}
