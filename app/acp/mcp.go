package acp

import (
	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
)

// mcpServers turns the client's MCP servers into the runtime's: Claude Code runs them beside the person's and
// the project's own. A server the runtime could not run is refused with what is wrong.
func mcpServers(list []mcpServer) ([]protocol.McpServer, error) {
	out := make([]protocol.McpServer, 0, len(list))
	seen := map[string]bool{}
	for _, m := range list {
		if m.Name == "" || seen[m.Name] {
			return nil, errorf(codeInvalidParams, "invalid params: each MCP server needs a name of its own (%q)", m.Name)
		}
		seen[m.Name] = true
		s := protocol.McpServer{Name: m.Name, Env: pairs(m.Env), Headers: pairs(m.Headers)}
		switch m.Type {
		case "", "stdio":
			if m.Command == "" {
				return nil, errorf(codeInvalidParams, "invalid params: the stdio MCP server %q needs a command", m.Name)
			}
			s.Transport, s.Command, s.Args = activity.McpTransportStdio, m.Command, m.Args
		case "http", "sse":
			if m.URL == "" {
				return nil, errorf(codeInvalidParams, "invalid params: the MCP server %q needs a url", m.Name)
			}
			s.Transport, s.URL = activity.McpTransportHTTP, m.URL
			if m.Type == "sse" {
				s.Transport = activity.McpTransportSse
			}
		default:
			return nil, errorf(codeInvalidParams, "invalid params: the MCP server %q has an unknown type %q", m.Name, m.Type)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func pairs(list []nameValue) []protocol.NameValue {
	if len(list) == 0 {
		return nil
	}
	out := make([]protocol.NameValue, 0, len(list))
	for _, p := range list {
		out = append(out, protocol.NameValue{Name: p.Name, Value: p.Value})
	}
	return out
}
