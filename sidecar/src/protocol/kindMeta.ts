// Per-kind metadata of the wire (PROTOCOL.md, "Adding a kind"), gathered from the areas' files (kinds/*.ts, where
// each entry sits beside its kind's schema): one entry per kind, sidecar-made and host-made alike, so a kind without
// one fails the typecheck. Generated from it: the kinds table in PROTOCOL.md, each kind's first line in
// testdata/protocol (valid.ndjson, host.ndjson), the CLI's per-kind terminal lines (app/cli/terminal_gen.go, through
// wire.schema.json) — scripts/gen-protocol.
import type { z } from 'zod';
import type { Event, hostEventSchemas } from './events.js';
import { SESSION_META } from './kinds/session.js';
import { TURN_META, TURN_HOST_META } from './kinds/turn.js';
import { MESSAGE_META } from './kinds/message.js';
import { TOOL_META } from './kinds/tool.js';
import { PERMISSION_META } from './kinds/permission.js';
import { BACKGROUND_META } from './kinds/background.js';
import { COMMANDS_META } from './kinds/commands.js';
import type { KindMeta } from './kinds/meta.js';

export type { KindMeta, SizeRule, Terminal, TerminalLine } from './kinds/meta.js';

type HostEvent = z.infer<(typeof hostEventSchemas)[number]>;
/** Kinds the host makes itself (turn.queued). */
export type HostKind = HostEvent['kind'];
export type AnyKind = Event['kind'] | HostKind;
type Of<K extends AnyKind> = Extract<Event | HostEvent, { kind: K }>;

export const KIND_META = {
  ...SESSION_META,
  ...TURN_META,
  ...MESSAGE_META,
  ...TOOL_META,
  ...PERMISSION_META,
  ...BACKGROUND_META,
  ...COMMANDS_META,
  ...TURN_HOST_META,
} as const satisfies { [K in AnyKind]: KindMeta<Of<K>> };
