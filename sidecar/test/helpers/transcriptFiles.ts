// Synthetic Claude Code transcripts for the history tests: lines shaped as the CLI writes them (camelCase, uuid
// chains), written into a temporary config dir laid out as Claude Code's (projects/<key>/<session>.jsonl).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const CWD = '/home/user/demo';
export const PROJECT_KEY = '-home-user-demo';

export interface ConfigDir {
  root: string;
  /** Writes `lines` (objects, or raw text for a corrupt line) as the file at `path` under projects/<key>/. */
  write(path: string, lines: ReadonlyArray<object | string>): string;
  remove(): void;
}

export function configDir(): ConfigDir {
  const root = mkdtempSync(join(tmpdir(), 'baton-transcripts-'));
  return {
    root,
    write(path, lines) {
      const file = join(root, 'projects', PROJECT_KEY, path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
      return file;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

let clock = Date.parse('2026-12-01T10:00:00.000Z');
const stamp = () => {
  clock += 1000;
  return new Date(clock).toISOString();
};

interface Common {
  uuid: string;
  parentUuid: string | null;
  session: string;
  extra?: Record<string, unknown>;
}

function base(c: Common): Record<string, unknown> {
  return {
    parentUuid: c.parentUuid,
    isSidechain: false,
    userType: 'external',
    cwd: CWD,
    sessionId: c.session,
    version: '2.1.0',
    uuid: c.uuid,
    timestamp: stamp(),
    ...c.extra,
  };
}

export function userLine(c: Common, content: unknown): Record<string, unknown> {
  return { ...base(c), type: 'user', message: { role: 'user', content } };
}

export function assistantLine(c: Common, id: string, content: unknown[], model = 'claude-opus-5-5'): Record<string, unknown> {
  return { ...base(c), type: 'assistant', message: { id, type: 'message', role: 'assistant', model, content, stop_reason: 'end_turn' } };
}

export function toolResultLine(c: Common, toolUseId: string, content: unknown, toolUseResult?: unknown): Record<string, unknown> {
  return {
    ...userLine(c, [{ type: 'tool_result', tool_use_id: toolUseId, content }]),
    ...(toolUseResult !== undefined ? { toolUseResult } : {}),
  };
}

export function systemLine(c: Common, subtype: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { ...base(c), type: 'system', subtype, ...fields };
}

export const text = (t: string) => ({ type: 'text', text: t });
export const toolUse = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
