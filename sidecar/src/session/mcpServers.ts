// The MCP servers a start request adds (an ACP client's, through `baton acp`), as the SDK's mcpServers option.
import type { McpServerConfig } from '@anthropic-ai/claude-agent-sdk';
import type { McpServer } from '../protocol/schemas.js';

function record(pairs: ReadonlyArray<{ name: string; value: string }> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs ?? []) out[p.name] = p.value;
  return out;
}

function config(server: McpServer): McpServerConfig {
  switch (server.transport) {
    case 'stdio':
      return { type: 'stdio', command: server.command ?? '', args: server.args ?? [], env: record(server.env) };
    case 'http':
      return { type: 'http', url: server.url ?? '', headers: record(server.headers) };
    case 'sse':
      return { type: 'sse', url: server.url ?? '', headers: record(server.headers) };
    default: {
      const unreachable: never = server.transport;
      throw new Error(`unknown MCP transport ${String(unreachable)}`);
    }
  }
}

/** The servers by name (the request's schema keeps names unique). */
export function mcpServerConfigs(servers: readonly McpServer[]): Record<string, McpServerConfig> {
  const out: Record<string, McpServerConfig> = {};
  for (const s of servers) out[s.name] = config(s);
  return out;
}
