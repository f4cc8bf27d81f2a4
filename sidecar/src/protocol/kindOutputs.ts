// What scripts/gen-protocol writes from the kinds' metadata (kindMeta.ts) besides wire.schema.json: each kind's first
// fixture line (its example) and the kinds table of PROTOCOL.md. Tests regenerate both and fail when a checked-in
// copy differs.
import { hostEventSchemas } from './events.js';
import { type AnyKind, KIND_META, type SizeRule } from './kindMeta.js';
import { PROTOCOL_VERSION } from './version.js';

const HOST_KINDS: ReadonlySet<string> = new Set(hostEventSchemas.map((s) => s.shape.kind.value));
const ALL_KINDS = Object.keys(KIND_META) as AnyKind[];

/** The fixture files the examples go to: valid.ndjson holds sidecar kinds as event lines, host.ndjson bare host events. */
export type FixtureFile = 'valid.ndjson' | 'host.ndjson';

function exampleLine(kind: AnyKind, file: FixtureFile): string {
  const event = JSON.stringify(KIND_META[kind].example);
  return file === 'host.ndjson' ? event : `{"v":${PROTOCOL_VERSION},"type":"event","event":${event}}`;
}

function kindOfLine(line: string, file: FixtureFile): string | undefined {
  const value = JSON.parse(line) as { kind?: string; type?: string; event?: { kind?: string } };
  return file === 'host.ndjson' ? value.kind : value.type === 'event' ? value.event?.kind : undefined;
}

/**
 * The fixture with each kind's first line set to its example: a kind with no line yet gets one after the last event
 * line. Later lines of a kind (variants) and every other line stay as written.
 */
export function fixtureText(current: string, file: FixtureFile): string {
  const lines = current.split('\n').filter((l) => l.trim() !== '');
  const kinds = ALL_KINDS.filter((k) => HOST_KINDS.has(k) === (file === 'host.ndjson'));
  const seen = new Set<string>();
  let lastEvent = -1;
  lines.forEach((line, i) => {
    const kind = kindOfLine(line, file);
    if (kind === undefined) return;
    lastEvent = i;
    if (seen.has(kind) || !(kinds as string[]).includes(kind)) return;
    seen.add(kind);
    lines[i] = exampleLine(kind as AnyKind, file);
  });
  const missing = kinds.filter((k) => !seen.has(k)).map((k) => exampleLine(k, file));
  lines.splice(lastEvent + 1, 0, ...missing);
  return `${lines.join('\n')}\n`;
}

function sizeText(rule: SizeRule<Record<string, unknown>>): string {
  if ('short' in rule) return `never shrunk: ${rule.short}`;
  const code = (fields: readonly PropertyKey[] | undefined) => (fields ?? []).map((f) => `\`${String(f)}\``).join(', ');
  const parts = [
    rule.truncate.length > 0 ? `${code(rule.truncate)} cut to 256k characters` : '',
    rule.drop?.length ? `${code(rule.drop)} dropped` : '',
    rule.stub?.length ? `${code(rule.stub)} replaced by \`{truncated: true}\`` : '',
    rule.empty?.length ? `${code(rule.empty)} emptied` : '',
    rule.images ? 'images keep type and size only' : '',
  ];
  return parts.filter((p) => p !== '').join('; ');
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The kinds table: kind, who makes it, what it is, and what bounds.ts does when its line is too large. */
export function kindsTable(): string {
  const rows = ALL_KINDS.map((kind) => {
    const meta = KIND_META[kind];
    const by = HOST_KINDS.has(kind) ? 'host' : 'sidecar';
    return `| \`${kind}\` | ${by} | ${cell(meta.description)} | ${cell(sizeText(meta.size as SizeRule<Record<string, unknown>>))} |`;
  });
  return ['| kind | made by | what it is | when its line is too large (bounds.ts) |', '|---|---|---|---|', ...rows].join('\n');
}

export const TABLE_BEGIN = '<!-- kinds table: generated from sidecar/src/protocol/kindMeta.ts by scripts/gen-protocol; do not edit -->';
export const TABLE_END = '<!-- end of kinds table -->';

/** PROTOCOL.md with the text between the markers replaced by the current kinds table. */
export function protocolDocText(current: string): string {
  const begin = current.indexOf(TABLE_BEGIN);
  const end = current.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`PROTOCOL.md has no "${TABLE_BEGIN}" … "${TABLE_END}" markers`);
  return `${current.slice(0, begin + TABLE_BEGIN.length)}\n${kindsTable()}\n${current.slice(end)}`;
}
