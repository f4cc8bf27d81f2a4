// The options every session runs with, and start's new / resume / fork modes.
import { describe, expect, it } from 'vitest';
import { allowsBypass, buildQueryOptions, sessionOptions } from '../../src/session/queryOptions.js';

const session = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';
const other = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('buildQueryOptions', () => {
  const base = { executable: '/opt/claude', stderr: () => undefined, runningAsRoot: false };

  it('sets the fixed options and passes the whole environment plus the todo tools switch', () => {
    const options = buildQueryOptions({ ...base, start: { session, cwd: '/p' }, env: { PATH: '/bin', HOME: '/h' } });
    expect(options).toMatchObject({
      cwd: '/p',
      settingSources: ['user', 'project', 'local'],
      systemPrompt: { type: 'preset', preset: 'claude_code' },
      includePartialMessages: true,
      includeHookEvents: true,
      thinking: { type: 'adaptive', display: 'summarized' },
      allowDangerouslySkipPermissions: true,
      enableFileCheckpointing: true,
      env: { PATH: '/bin', HOME: '/h', CLAUDE_CODE_ENABLE_TODO_TOOLS: '1', CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS: '1' },
      pathToClaudeCodeExecutable: '/opt/claude',
      // The echo the identity barrier binds on (identity.ts).
      extraArgs: { 'replay-user-messages': null },
      sessionId: session,
    });
    // The generation adds its own spawn hook, permission gate and fence hook (session/generation.ts).
    expect(options).not.toHaveProperty('canUseTool');
    // The session starts in the mode its settings give, on the CLI's default model.
    expect(options).not.toHaveProperty('permissionMode');
    expect(options).not.toHaveProperty('model');
  });

  it("adds the host's MCP servers, delivered in the initialize request, only when there are some", () => {
    const start = {
      session,
      cwd: '/p',
      mcpServers: [
        { name: 'files', transport: 'stdio' as const, command: '/bin/files', args: ['--ro'], env: [{ name: 'TOKEN', value: 't' }] },
        { name: 'docs', transport: 'http' as const, url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: 'b' }] },
        { name: 'old', transport: 'sse' as const, url: 'http://127.0.0.1:9/sse' },
      ],
    };
    expect(buildQueryOptions({ ...base, start, env: {} })).toMatchObject({
      mcpServersDelivery: 'initialize',
      mcpServers: {
        files: { type: 'stdio', command: '/bin/files', args: ['--ro'], env: { TOKEN: 't' } },
        docs: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'b' } },
        old: { type: 'sse', url: 'http://127.0.0.1:9/sse', headers: {} },
      },
    });
    const none = buildQueryOptions({ ...base, start: { session, cwd: '/p', mcpServers: [] }, env: {} });
    expect(none).not.toHaveProperty('mcpServers');
    expect(none).not.toHaveProperty('mcpServersDelivery');
  });

  it('passes a mode and a model only when the host asked for them', () => {
    const options = buildQueryOptions({ ...base, start: { session, cwd: '/p', permissionMode: 'plan', model: 'sonnet' }, env: {} });
    expect(options).toMatchObject({ permissionMode: 'plan', model: 'sonnet' });
    expect(buildQueryOptions({ ...base, start: { session, cwd: '/p', model: 'default' }, env: {} })).not.toHaveProperty('model');
  });

  it('leaves bypass out as root outside a sandbox, where the CLI would refuse to start', () => {
    expect(allowsBypass(false, {})).toBe(true);
    expect(allowsBypass(true, {})).toBe(false);
    expect(allowsBypass(true, { IS_SANDBOX: '1' })).toBe(true);
    expect(buildQueryOptions({ ...base, runningAsRoot: true, start: { session, cwd: '/p' }, env: {} })).not.toHaveProperty('allowDangerouslySkipPermissions');
  });
});

describe('sessionOptions', () => {
  it('maps new, resume, resume-at, fork and fork-at', () => {
    expect(sessionOptions({ session, cwd: '/p' })).toEqual({ sessionId: session });
    expect(sessionOptions({ session, cwd: '/p', resume: true })).toEqual({ resume: session });
    expect(sessionOptions({ session, cwd: '/p', resume: true, at: 'm1' })).toEqual({ resume: session, resumeSessionAt: 'm1' });
    expect(sessionOptions({ session, cwd: '/p', forkFrom: other })).toEqual({ resume: other, forkSession: true, sessionId: session });
    expect(sessionOptions({ session, cwd: '/p', forkFrom: other, at: 'm2' })).toEqual({
      resume: other,
      forkSession: true,
      sessionId: session,
      resumeSessionAt: 'm2',
    });
  });
});
