// Where a session's subagents' transcripts are, in the layouts after 1.0.x (whose subagents are inline): 2.0.x
// `agent-<id>.jsonl` beside the session's file, 2.1.x `<session>/subagents/agent-<id>.jsonl` with an
// `agent-<id>.meta.json` naming the tool call that ran it. Each is tied to its Agent / Task call by the agent id
// the call's result names (toolUseResult.agentId) or, failing that, by the meta file.
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Tool call id → the subagent transcript it ran. */
export type SubagentFiles = Map<string, string>;

export async function findSubagents(sessionFile: string, agentOf: ReadonlyMap<string, string>): Promise<SubagentFiles> {
  const dir = dirname(sessionFile);
  const session = basename(sessionFile, '.jsonl');
  const nested = join(dir, session, 'subagents');
  const files = new Map<string, string>(); // agent id → file
  for (const [folder, names] of [
    [dir, await listDir(dir)],
    [nested, await listDir(nested)],
  ] as const) {
    for (const name of names) {
      const id = /^agent-(.+)\.jsonl$/.exec(name)?.[1];
      if (id !== undefined) files.set(id, join(folder, name));
    }
  }
  const out: SubagentFiles = new Map();
  for (const [toolUseId, agentId] of agentOf) {
    const file = files.get(agentId);
    if (file !== undefined) out.set(toolUseId, file);
  }
  for (const [toolUseId, agentId] of await metaLinks(nested)) {
    const file = files.get(agentId);
    if (file !== undefined && !out.has(toolUseId)) out.set(toolUseId, file);
  }
  return out;
}

/** 2.1.x meta files: agent id → the tool call that ran it. */
async function metaLinks(nested: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const name of await listDir(nested)) {
    const id = /^agent-(.+)\.meta\.json$/.exec(name)?.[1];
    if (id === undefined) continue;
    try {
      const meta = JSON.parse(await readFile(join(nested, name), 'utf8')) as { toolUseId?: unknown };
      if (typeof meta.toolUseId === 'string' && meta.toolUseId !== '') out.push([meta.toolUseId, id]);
    } catch {
      // a meta file being written, or not ours: the agent is found by its call's result, if at all
    }
  }
  return out;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
