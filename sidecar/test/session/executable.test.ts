// Which claude binary a session gets: env, then the host's path, then (without one) the SDK's platform package.
import { describe, expect, it } from 'vitest';
import { ProtocolFailure } from '../../src/protocol/errors.js';
import { resolveSdkBinary, sdkBinaryCandidates, selectExecutable } from '../../src/session/executable.js';
import { CLAUDE_BINARY } from '../helpers/fakeApi.js';

const exists = (paths: string[]) => (p: string) => paths.includes(p);

describe('selectExecutable', () => {
  it('prefers CLAUDE_CODE_EXECUTABLE', () => {
    const choice = selectExecutable({
      env: { CLAUDE_CODE_EXECUTABLE: '/env/claude' },
      hostPath: '/host/claude',
      resolveSdkBinary: () => '/sdk/claude',
      isFile: exists(['/env/claude', '/sdk/claude', '/host/claude']),
    });
    expect(choice).toEqual({ path: '/env/claude', source: 'env' });
  });

  it('fails clearly when CLAUDE_CODE_EXECUTABLE names a missing file', () => {
    expect(() =>
      selectExecutable({ env: { CLAUDE_CODE_EXECUTABLE: '/nope' }, hostPath: undefined, resolveSdkBinary: () => undefined, isFile: exists([]) }),
    ).toThrow(/CLAUDE_CODE_EXECUTABLE points to \/nope/);
  });

  it("uses the host's path, and the SDK package binary only without one", () => {
    const isFile = exists(['/sdk/claude', '/host/claude']);
    expect(selectExecutable({ env: {}, hostPath: '/host/claude', resolveSdkBinary: () => '/sdk/claude', isFile })).toEqual({
      path: '/host/claude',
      source: 'host',
    });
    expect(selectExecutable({ env: {}, hostPath: undefined, resolveSdkBinary: () => '/sdk/claude', isFile }).source).toBe('sdk_package');
  });

  it("never falls back from a missing host path to the SDK's lookup", () => {
    const lookup = { env: {}, hostPath: '/host/claude', resolveSdkBinary: () => '/planted/claude', isFile: exists(['/planted/claude']) };
    expect(() => selectExecutable(lookup)).toThrow(/\/host\/claude does not exist/);
  });

  it('explains what to do when there is no binary', () => {
    try {
      selectExecutable({ env: {}, hostPath: '/host/claude', resolveSdkBinary: () => undefined, isFile: exists([]) });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ProtocolFailure);
      expect((error as ProtocolFailure).code).toBe('sdk_error');
      expect((error as ProtocolFailure).message).toMatch(/\/host\/claude does not exist.*CLAUDE_CODE_EXECUTABLE/);
    }
  });
});

describe('the SDK platform package', () => {
  it("lists candidates in the SDK's order", () => {
    expect(sdkBinaryCandidates('linux', 'x64', true)).toEqual([
      '@anthropic-ai/claude-agent-sdk-linux-x64/claude',
      '@anthropic-ai/claude-agent-sdk-linux-x64-musl/claude',
    ]);
    expect(sdkBinaryCandidates('linux', 'arm64', false)[0]).toBe('@anthropic-ai/claude-agent-sdk-linux-arm64-musl/claude');
    expect(sdkBinaryCandidates('win32', 'x64', false)).toEqual(['@anthropic-ai/claude-agent-sdk-win32-x64/claude.exe']);
  });

  it('resolves the installed binary in this dev tree', () => {
    expect(resolveSdkBinary()).toBe(CLAUDE_BINARY);
  });
});
