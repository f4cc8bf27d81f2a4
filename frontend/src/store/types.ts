// The console's state: what the store folds events into. Items are immutable (a change makes a new object),
// so a row component re-renders only when its own item changed.
import type { Capabilities, SessionInfo, Settings } from '../protocol/api';
import type { ChangesUpdate } from '../protocol/api.gen';
import type { AuthState, IndexState, ProvisionState } from '../protocol/hostState';
import type {
  CommandEntry,
  EventBase,
  FileBefore,
  Json,
  ModelEntry,
  PermissionMode,
  PermissionRequestedEvent,
  PlanItem,
  QuestionAnswer,
  SessionEvent,
  SettledBy,
  ToolKind,
  Verdict,
} from '../protocol/events';
import type { BackgroundTask, CommandStream, CompactTrigger, GoalState, HookOutcome, Image, LimitStatus, LimitWindow } from '../protocol/wire.gen';
import type { ConnectionState } from '../transport/transport';

export type ItemKey = string;

interface ItemBase {
  key: ItemKey;
  turn?: string;
  time: string;
}

/** A prompt the person sent (turn.started), or a user-role message from the transcript. */
export interface UserItem extends ItemBase {
  type: 'user';
  text: string;
  uuid?: string;
  /** Guidance sent while the turn ran (turn.guided): it interrupted the reply and steered the same turn. */
  steered?: boolean;
  /** Images attached to the prompt (turn.started). */
  images?: Image[];
}

export interface AssistantItem extends ItemBase {
  type: 'assistant';
  messageId?: string;
  uuid?: string;
  text: string;
  /** Still being written (deltas); replaced by message.completed. */
  streaming: boolean;
  /** The turn was stopped while this was written: the text is what had streamed by then. */
  stopped?: true;
  parentToolUseId?: string;
}

export interface ThinkingItem extends ItemBase {
  type: 'thinking';
  messageId?: string;
  text: string;
  streaming: boolean;
  stopped?: true;
  parentToolUseId?: string;
}

/**
 * canceled / interrupted: the call got no result because its turn was stopped, or its process or Baton died;
 * ended: the transcript stops while it ran (the session ended before it finished).
 */
export type ToolStatus = 'running' | 'completed' | 'failed' | 'canceled' | 'interrupted' | 'ended';

export interface ToolItem extends ItemBase {
  type: 'tool';
  toolUseId: string;
  name: string;
  input: Json;
  /** The sidecar's tool catalogue's reading of name + input (tool.started): cards pick their component by kind. */
  toolKind: ToolKind;
  title: string;
  /** The call's key detail (a lookup's target, a command's description), when it has one. */
  detail?: string;
  status: ToolStatus;
  output?: string;
  structured?: Json;
  error?: string;
  /** The file's text before this tool ran, as far as the session knows it (undefined: not known). */
  before?: string | null;
  fileBefore?: FileBefore;
  elapsedSeconds?: number;
  summary?: string;
  parentToolUseId?: string;
  /** Nested items (a Task/Agent call's subagent messages and tools), in order. */
  children: ItemKey[];
  /** The permission request raised for this call, if any. */
  requestId?: string;
  /** The permission gate refused the call (tool.failed.denied): it never ran. Known in history too. */
  denied?: true;
  /** Images the tool returned (tool.completed). */
  images?: Image[];
  /** Checklist updates in a row that this one row stands for (it replaced the row of the one before). */
  repeats?: number;
}

export interface PermissionSettlement {
  verdict: Verdict;
  by: SettledBy;
  message?: string;
  /** AskUserQuestion: what the person answered. */
  answers?: QuestionAnswer[];
  /** ExitPlanMode approved: the mode the session continues in. */
  mode?: PermissionMode;
  /** Answered by a person in another window (not this one). */
  elsewhere: boolean;
}

/** A permission request: the event's own fields (one definition, the wire's), plus how it was settled. */
export interface PermissionItem extends ItemBase, Omit<PermissionRequestedEvent, keyof EventBase | 'kind'> {
  type: 'permission';
  settled?: PermissionSettlement;
}

export interface TurnEndItem extends ItemBase {
  type: 'turnEnd';
  outcome: 'completed' | 'canceled';
  durationMs?: number;
  costUsd?: number;
  numTurns?: number;
  /** A streamed reply that never completed was discarded (its deltas were ephemeral). */
  discardedPartial?: boolean;
  /** Canceled by closing Claude Code's process: it did not answer the interrupt in time. */
  forced?: boolean;
  /** A plain deny stopped Claude: it waits for the person's next prompt. */
  deniedStop?: true;
}

export interface ErrorItem extends ItemBase {
  type: 'error';
  title: string;
  message: string;
  code?: string;
  /** The API's error as Claude Code recorded it (api.error), not the turn's own failure. */
  api?: true;
}

export interface UnknownItem extends ItemBase {
  type: 'unknown';
  label: string;
  raw: Json;
}

export interface NoticeItem extends ItemBase {
  type: 'notice';
  text: string;
  /** The transcript's "[Request interrupted by user]": the turn's own end says "Canceled" when it is known. */
  interrupted?: true;
}

/** A command hook from the settings ran: one collapsed row, its output inside. */
export interface HookItem extends ItemBase {
  type: 'hook';
  hookEvent: string;
  name: string;
  outcome: HookOutcome;
  output?: string;
}

/** The conversation was compacted here (session.compacted): what is above it is what the summary replaced. */
export interface CompactedItem extends ItemBase {
  type: 'compacted';
  trigger: CompactTrigger;
  preTokens: number;
}

/** The summary Claude Code wrote at a compaction (compact.summary): shown collapsed, never as a prompt. */
export interface SummaryItem extends ItemBase {
  type: 'summary';
  text: string;
}

export interface CommandOutput {
  stream: CommandStream;
  text: string;
}

/** A local slash command and what it printed; `command` is absent for output that followed no command. */
export interface CommandItem extends ItemBase {
  type: 'command';
  command?: string;
  output: CommandOutput[];
}

export type Item =
  | UserItem
  | AssistantItem
  | ThinkingItem
  | ToolItem
  | PermissionItem
  | TurnEndItem
  | ErrorItem
  | UnknownItem
  | NoticeItem
  | HookItem
  | CompactedItem
  | SummaryItem
  | CommandItem;

/** One ordered transcript: top-level rows plus every item (nested ones too) by key. */
export interface Transcript {
  /** Prefix of this transcript's keys, so history and live keys never collide. */
  prefix: string;
  rows: ItemKey[];
  items: Map<ItemKey, Item>;
  /** Streaming items by `${messageId}:${index}`; ephemeral, dropped when their message completes. */
  streams: Map<string, ItemKey>;
  /**
   * Keys of items by id: `tool:<toolUseId>`, `perm:<requestId>`; `permfor:<toolUseId>` → its request's id; and
   * `command:open` → the command row that output coming next belongs to.
   */
  ids: Map<string, ItemKey>;
  /** What the session knows of each file's text, to show a tool's diff against the text before it. */
  files: Map<string, string | null>;
  counter: number;
}

export type TurnStatus = 'queued' | 'running' | 'completed' | 'failed' | 'canceled';

export interface TurnInfo {
  id: string;
  prompt: string;
  status: TurnStatus;
  uuid?: string;
}

export interface Usage {
  /** Tokens written this turn (live while it streams). */
  turnOutputTokens: number;
  /** The part of turnOutputTokens that is Claude Code's estimate of thinking still streaming (none: absent). */
  thinkingTokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
  /** Only when the CLI reported one: the gauge is shown only then. */
  contextWindow?: number;
  contextTokens?: number;
}

export interface HistoryState {
  /** Positions [start, start+events.length) of `total` in the stored history are loaded. */
  start: number;
  total: number;
  /** True once the oldest page is in (or no history exists for this session). */
  exhausted: boolean;
  loading: boolean;
  error?: string;
  /** The loaded events that precede the live part, oldest first. */
  events: SessionEvent[];
  transcript: Transcript;
}

export interface SessionState {
  id: string;
  cwd: string;
  title?: string;
  /** Open in the host right now. */
  live: boolean;
  /** Open but holding no process (asleep), or getting one back (waking); absent while awake. */
  sleep?: 'asleep' | 'waking';
  closed?: { reason: string; message?: string };
  requestedModel: string;
  effectiveModel?: string;
  permissionMode: PermissionMode;
  resumed: boolean;
  forkedFrom?: string;
  transcript: Transcript;
  history: HistoryState;
  turns: Map<string, TurnInfo>;
  /** Turn ids in the order they were sent or started. */
  turnOrder: string[];
  runningTurn?: string;
  /** A turn this window asked to cancel whose end has not arrived yet: the console shows "Stopping…". */
  stopping?: string;
  /** Request ids still waiting for an answer, oldest first. */
  pending: string[];
  plan: PlanItem[];
  usage: Usage;
  /** What the CLI is doing right now (requesting, compacting…), while a turn runs. */
  activity?: string;
  /** Models this session can switch to, as the CLI lists them (empty until it did). */
  models: ModelEntry[];
  /** Slash commands the CLI offers. */
  commands: CommandEntry[];
  /** Context in use, as the CLI measured it (getContextUsage). */
  context?: { totalTokens: number; maxTokens?: number; percentage?: number };
  /** The background tasks Claude Code reports live (the whole set; ambient ones included, marked). */
  tasks: BackgroundTask[];
  /** When each task was seen starting (its task.started time), for the elapsed time shown beside it. */
  taskStarts: Record<string, string>;
  /** The last lines of each background command's output, by the tool call that launched it (task.output). */
  taskTails: Record<string, string>;
  /** The goal `/goal` set, while one is active or just met. */
  goal?: GoalState;
  /** The plan's limits as this session's last answer reported them (limit.updated; never for an API key). */
  limits?: PlanLimits;
  /** Highest `seq` folded in, to skip what a snapshot already held. */
  lastSeq: number;
}

export type Mark = 'permission' | 'finished';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  message: string;
}

export interface SidebarState {
  items: SessionInfo[];
  loading: boolean;
  error?: string;
}

export interface ConsoleState {
  connection: ConnectionState;
  /** The first snapshot has been folded in. */
  loaded: boolean;
  capabilities?: Capabilities;
  provisioning: ProvisionState;
  auth: AuthState;
  /** How far Baton's index of the stored sessions is (the sidebar shows it while it builds). */
  index: IndexState;
  /** How long an open session may sit idle before it sleeps, in seconds (0: never); the host's setting. */
  sessionIdleSeconds?: number;
  /** The console settings saved in Baton's data dir (getSettings), once read. */
  settings?: Settings;
  sessions: Record<string, SessionState>;
  /** Open sessions' change counts as the host pushes them (their folders watched): the sidebar's and the Changes
   * panel's cue. */
  changes: Record<string, ChangesUpdate>;
  sidebar: SidebarState;
  selected?: string;
  /** Text to put back into a session's composer (a rewound prompt, stopped queued prompts), taken once. */
  drafts: Record<string, string>;
  /** Background sessions that wait for a permission or have finished. */
  marks: Record<string, Mark>;
  toasts: Toast[];
}

/** A plan's limits as Claude Code read them from an answer: the window that decides, and every window reported. */
export interface PlanLimits {
  status: LimitStatus;
  window?: string;
  resetsAt?: string;
  utilization?: number;
  windows: LimitWindow[];
  /** When it was reported (the event's time), and in which turn. */
  at: string;
  turn?: string;
}
