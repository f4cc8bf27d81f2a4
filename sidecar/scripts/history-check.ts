// Runs Baton's history mapping (TranscriptReader, as the `history` request and transcript jobs do) over every
// session of a config dir and prints, per session, what the file holds beside what Baton made of it: a check of
// the reader against transcripts it was not built from. Usage: bun scripts/history-check.ts <config dir> [--details]
// (--details lists what did not map, with the first words of each prompt: keep that output out of commits).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chainTo, newestLeaf, wantedLines } from '../src/history/chain.js';
import { NO_ID } from '../src/history/idTable.js';
import { TranscriptReader } from '../src/history/transcriptReader.js';
import { scanTranscript } from '../src/history/transcriptScan.js';
import type { Event } from '../src/protocol/events.js';

interface Raw {
  lines: number;
  unreadable: number;
  /** Main-conversation user lines a person may have typed (not tool results, CLI context or notices). */
  promptUuids: Map<string, string>;
  toolUses: Set<string>;
  toolResults: Set<string>;
  boundaries: number;
  summaries: number;
  apiErrors: number;
  commands: number;
  outputs: number;
  images: number;
  sessionIds: Set<string>;
  cwds: Set<string>;
}

type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown; text?: unknown } | null;

const CLI_TEXT =
  /^\s*(<local-command-|<command-name>|\[Request interrupted by user|Caveat: The messages below|<task-notification>|<bash-(input|stdout|stderr)>)/;

function readRaw(file: string, raw: Raw, main: boolean): void {
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    raw.lines++;
    let e: Record<string, unknown> & { message?: { content?: unknown } };
    try {
      e = JSON.parse(text);
    } catch {
      raw.unreadable++;
      continue;
    }
    if (typeof e !== 'object' || e === null) continue;
    if (typeof e['sessionId'] === 'string') raw.sessionIds.add(e['sessionId'] as string);
    if (typeof e['cwd'] === 'string') raw.cwds.add(e['cwd'] as string);
    if (e['type'] === 'system' && e['subtype'] === 'compact_boundary') raw.boundaries++;
    if (e['type'] === 'system' && e['subtype'] === 'local_command') raw.outputs++;
    if (e['isApiErrorMessage'] === true) raw.apiErrors++;
    const content = e['message']?.content;
    const blocks: Block[] = Array.isArray(content) ? content : [];
    for (const b of blocks) {
      if (b?.type === 'tool_use') raw.toolUses.add(String(b.id));
      if (b?.type === 'tool_result') raw.toolResults.add(String(b.tool_use_id));
    }
    if (e['type'] !== 'user') continue;
    if (e['isCompactSummary'] === true) raw.summaries++;
    const first = typeof content === 'string' ? content : String(blocks.find((b) => b?.type === 'text')?.text ?? '');
    if (/^\s*<command-name>/.test(first)) raw.commands++;
    if (/^\s*<local-command-std/.test(first)) raw.outputs++;
    if (blocks.some((b) => b?.type === 'tool_result')) continue;
    raw.images += blocks.filter((b) => b?.type === 'image').length;
    if (!main || e['isSidechain'] === true || e['isMeta'] === true || e['isCompactSummary'] === true || e['isVisibleInTranscriptOnly'] === true) continue;
    if (CLI_TEXT.test(first) || typeof e['uuid'] !== 'string') continue;
    raw.promptUuids.set(e['uuid'] as string, first.slice(0, 60).replace(/\s+/g, ' '));
  }
}

function subagentFiles(file: string, session: string): string[] {
  const dir = join(file, '..');
  const beside = readdirSync(dir).filter((n) => /^agent-.+\.jsonl$/.test(n) && readFileSync(join(dir, n), 'utf8').includes(`"sessionId":"${session}"`));
  const nestedDir = join(dir, session, 'subagents');
  const nested = exists(nestedDir) ? readdirSync(nestedDir).filter((n) => /^agent-.+\.jsonl$/.test(n)) : [];
  return [...beside.map((n) => join(dir, n)), ...nested.map((n) => join(nestedDir, n))];
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

const count = (events: readonly Event[], kind: Event['kind']) => events.filter((e) => e.kind === kind).length;

async function check(file: string, details: boolean): Promise<string[]> {
  const session = basename(file, '.jsonl');
  const raw: Raw = {
    lines: 0,
    unreadable: 0,
    promptUuids: new Map(),
    toolUses: new Set(),
    toolResults: new Set(),
    boundaries: 0,
    summaries: 0,
    apiErrors: 0,
    commands: 0,
    outputs: 0,
    images: 0,
    sessionIds: new Set(),
    cwds: new Set(),
  };
  readRaw(file, raw, true);
  const agents = subagentFiles(file, session);
  for (const a of agents) readRaw(a, raw, false);
  const events: Event[] = [];
  let failure = '';
  try {
    const reader = await TranscriptReader.open({ session, file }, () => new Date('2026-12-02T00:00:00Z'));
    for await (const item of reader.items()) events.push(item.event);
  } catch (err) {
    failure = err instanceof Error ? (err.stack ?? err.message).split('\n').slice(0, 3).join(' | ') : String(err);
  }
  const prompts = events.flatMap((e) => (e.kind === 'turn.started' ? [e] : []));
  const mapped = new Set(prompts.map((p) => p.uuid));
  const scan = await scanTranscript(file);
  const leaf = newestLeaf(scan.lines);
  const chain = leaf !== NO_ID ? chainTo(scan, leaf).chain : [];
  const wanted = wantedLines(scan, chain);
  const onChain = new Set<string>();
  for (let l = 0; l < scan.lines.length; l++) {
    if (wanted.has(scan.lines.offset(l)) && scan.lines.uuid(l) !== NO_ID) onChain.add(scan.uuids.text(scan.lines.uuid(l)));
  }
  const dropped = [...raw.promptUuids].filter(([u]) => onChain.has(u) && !mapped.has(u));
  const offChain = [...raw.promptUuids].filter(([u]) => !onChain.has(u));
  const started = new Set(events.flatMap((e) => (e.kind === 'tool.started' ? [e.toolUseId] : [])));
  const ended = new Set(events.flatMap((e) => (e.kind === 'tool.completed' || e.kind === 'tool.failed' || e.kind === 'tool.interrupted' ? [e.toolUseId] : [])));
  const nestedCalls = new Set(events.flatMap((e) => ('parentToolUseId' in e && typeof e.parentToolUseId === 'string' ? [e.parentToolUseId] : [])));
  const unknowns = events.flatMap((e) => (e.kind === 'unknown' ? [rawType(e.raw)] : []));
  const marked = prompts.filter((p) => /<(system-reminder|command-name|command-message|local-command-|persisted-output)/.test(p.prompt)).length;
  const images = prompts.reduce((n, p) => n + (p.images?.length ?? 0), 0);
  const row = [
    session.slice(0, 8),
    raw.lines,
    `${raw.unreadable}/${count(events, 'transcript.unreadable') > 0 ? (events.find((e) => e.kind === 'transcript.unreadable') as { lines: number }).lines : 0}`,
    events.length,
    `${prompts.length}/${raw.promptUuids.size}(-${offChain.length}b,-${dropped.length}d)`,
    `${raw.toolUses.size}/${raw.toolResults.size}/${started.size}/${ended.size}`,
    `${raw.boundaries}/${count(events, 'session.compacted')}/${raw.summaries}/${count(events, 'compact.summary')}`,
    `${agents.length}/${nestedCalls.size}`,
    `${raw.apiErrors}/${count(events, 'api.error')}`,
    `${raw.commands}/${count(events, 'command.ran')}/${raw.outputs}/${count(events, 'command.output')}`,
    `${raw.images}/${images}`,
    `${unknowns.length}${unknowns.length > 0 ? `[${[...new Set(unknowns)].join(',')}]` : ''}`,
    marked,
    `${raw.sessionIds.size}/${raw.cwds.size}`,
    failure === '' ? '-' : failure,
  ];
  const out = [row.join('\t')];
  if (details) {
    for (const [u, t] of dropped) out.push(`  dropped prompt ${u}: ${t}`);
    for (const id of raw.toolUses) if (!started.has(id)) out.push(`  tool_use not started ${id}`);
    for (const id of started) if (!ended.has(id)) out.push(`  tool started never ended ${id}`);
    for (const p of prompts) if (/<[a-z][\w-]*>/.test(p.prompt)) out.push(`  markup in prompt ${p.uuid}: ${p.prompt.slice(0, 80).replace(/\s+/g, ' ')}`);
    const tally = new Map<string, number>();
    for (const e of events) tally.set(e.kind, (tally.get(e.kind) ?? 0) + 1);
    out.push(`  kinds ${[...tally].map(([k, n]) => `${k}=${n}`).join(' ')}`);
  }
  return out;
}

function rawType(raw: unknown): string {
  const r = raw as { type?: unknown; subtype?: unknown; message?: { content?: unknown } } | null;
  const blocks = Array.isArray(r?.message?.content) ? (r.message.content as Array<{ type?: unknown }>).map((b) => String(b?.type)) : [];
  return [r?.type, r?.subtype].filter((x) => x !== undefined).join('/') + (blocks.length > 0 ? `(${[...new Set(blocks)].join('+')})` : '');
}

function sessionFiles(configDir: string): string[] {
  const projects = join(configDir, 'projects');
  return readdirSync(projects)
    .flatMap((p) => readdirSync(join(projects, p)).map((n) => join(projects, p, n)))
    .filter((f) => f.endsWith('.jsonl') && !basename(f).startsWith('agent-'))
    .sort();
}

const [configDir, flag] = process.argv.slice(2);
if (configDir === undefined) throw new Error('usage: bun scripts/history-check.ts <config dir> [--details]');
console.log(
  [
    'session',
    'lines',
    'unread file/ev',
    'events',
    'prompts ev/file(-branch,-dropped)',
    'tool_use/results/started/ended',
    'boundary/compacted/summaryLines/summaries',
    'agentFiles/nestedCalls',
    'apiErr file/ev',
    'cmd file/ev out file/ev',
    'images file/ev',
    'unknown',
    'markupPrompts',
    'sessionIds/cwds',
    'exception',
  ].join('\t'),
);
for (const file of sessionFiles(configDir)) for (const line of await check(file, flag === '--details')) console.log(line);
