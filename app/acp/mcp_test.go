package acp

import (
	"testing"

	"github.com/baton-console/baton/app/activity"
	"github.com/baton-console/baton/app/protocol"
	"github.com/stretchr/testify/require"
)

func TestClientMCPServersBecomeTheRuntimes(t *testing.T) {
	got, err := mcpServers([]mcpServer{
		{Name: "files", Command: "/bin/files", Args: []string{"--ro"}, Env: []nameValue{{Name: "TOKEN", Value: "t"}}},
		{Name: "docs", Type: "http", URL: "http://127.0.0.1:9/mcp", Headers: []nameValue{{Name: "Authorization", Value: "b"}}},
		{Name: "old", Type: "sse", URL: "http://127.0.0.1:9/sse"},
	})
	require.NoError(t, err)
	require.Equal(t, []protocol.McpServer{
		{Name: "files", Transport: activity.McpTransportStdio, Command: "/bin/files", Args: []string{"--ro"},
			Env: []protocol.NameValue{{Name: "TOKEN", Value: "t"}}},
		{Name: "docs", Transport: activity.McpTransportHTTP, URL: "http://127.0.0.1:9/mcp",
			Headers: []protocol.NameValue{{Name: "Authorization", Value: "b"}}},
		{Name: "old", Transport: activity.McpTransportSse, URL: "http://127.0.0.1:9/sse"},
	}, got)
	none, err := mcpServers(nil)
	require.NoError(t, err)
	require.Nil(t, none)
	for _, bad := range [][]mcpServer{
		{{Name: "a"}},                                          // stdio without a command
		{{Name: "a", Type: "http"}},                            // http without a url
		{{Name: "a", Type: "ws", URL: "x"}},                    // unknown type
		{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}, // the same name twice
	} {
		_, err := mcpServers(bad)
		require.Error(t, err)
	}
}
