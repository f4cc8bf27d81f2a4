// Side reads: what the console shows beside the conversation — the command palette, the models, the context
// usage (with the model the CLI runs) and the session title — read from the SDK when a session opens, after every
// turn's result and after a model switch. They run in the background: a start reply or a turn never waits for
// them, and a read that fails is logged and skipped while the session carries on.
import type { SDKSessionInfo } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import type { CommandEntry, EventBody, ModelEntry } from '../protocol/events.js';
import { sessionTitle } from '../history/titles.js';
import { shortError } from '../util/diagnostics.js';

/** The part of the SDK's Query the reads use. */
export interface SideReadSource {
  supportedCommands(): Promise<unknown>;
  supportedModels(): Promise<unknown>;
  getContextUsage(options: { detail: 'summary' }): Promise<unknown>;
}

/** The SDK's getSessionInfo (it reads the transcript; no CLI process needed). */
export type SessionInfoFn = (sessionId: string, options: { dir: string }) => Promise<SDKSessionInfo | undefined>;

export type SideReadEvent = EventBody<'commands.updated'> | EventBody<'models.updated'> | EventBody<'context.updated'> | EventBody<'session.updated'>;

export interface SideReaderDeps {
  session: string;
  cwd: string;
  source: SideReadSource;
  sessionInfo: SessionInfoFn;
  emit: (body: SideReadEvent) => void;
  /** The model the CLI says it runs (the context usage names it): before a session's first prompt, and after a
   * switch, no system/init has said so yet. */
  modelReported: (model: string) => void;
  /** False once the session is ending: answers that arrive later are dropped. */
  isOpen: () => boolean;
  /** Diagnostics (the sidecar's stderr). */
  log: (message: string) => void;
}

// What the SDK answers, read defensively: a newer CLI may add or drop fields, and a malformed entry must not
// turn into an event the host refuses.
const sdkCommand = z.looseObject({ name: z.string().min(1), description: z.string().nullish(), argumentHint: z.string().nullish() });
const sdkModel = z.looseObject({
  value: z.string().min(1),
  displayName: z.string().nullish(),
  description: z.string().nullish(),
  resolvedModel: z.string().nullish(),
});
const sdkContext = z.looseObject({
  totalTokens: z.number().nonnegative(),
  maxTokens: z.number().nonnegative(),
  percentage: z.number().nonnegative(),
  model: z.string().optional(),
});

export function toCommands(answer: unknown): CommandEntry[] {
  const list = z.array(z.unknown()).parse(answer);
  return list.flatMap((item) => {
    const c = sdkCommand.safeParse(item);
    if (!c.success) return [];
    const hint = c.data.argumentHint ?? '';
    return [{ name: c.data.name, description: c.data.description ?? '', ...(hint !== '' ? { argumentHint: hint } : {}) }];
  });
}

export function toModels(answer: unknown): ModelEntry[] {
  const list = z.array(z.unknown()).parse(answer);
  return list.flatMap((item) => {
    const m = sdkModel.safeParse(item);
    if (!m.success) return [];
    const { value, displayName, description, resolvedModel } = m.data;
    return [
      {
        value,
        displayName: displayName ?? value,
        description: description ?? '',
        ...(resolvedModel !== undefined && resolvedModel !== null && resolvedModel !== '' ? { resolvedModel } : {}),
      },
    ];
  });
}

/** The session's stored title (history/titles.ts): its own title, else its first prompt as plain text. */
export function titleOf(info: SDKSessionInfo | undefined): string | undefined {
  const title = info === undefined ? '' : sessionTitle(info);
  return title === '' ? undefined : title;
}

export class SideReader {
  private running: Promise<void> | undefined;
  private again = false;
  // Lists and the title are sent when they change; context usage is sent after every read.
  private lastCommands: string | undefined;
  private lastModels: string | undefined;
  private lastTitle: string | undefined;
  /** Model switches so far: a context read begun before the latest one measured the model that ran before it. */
  private switches = 0;

  constructor(private readonly deps: SideReaderDeps) {}

  /**
   * Reads everything once; a call while a round runs asks for one more round after it (the state may have
   * changed since that round began). Never rejects.
   */
  refresh(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    const running = this.rounds().finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }

  /**
   * The model was switched (`read`: a query runs to ask). The console shows the model the CLI reports, never the
   * picker's label, so read again now: the CLI's word on the model it runs arrives before the next turn's init.
   */
  modelSwitched(read: boolean): Promise<void> {
    this.switches += 1;
    return read ? this.refresh() : Promise.resolve();
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      await this.round();
    } while (this.again && this.deps.isOpen());
  }

  private async round(): Promise<void> {
    const { source, session, cwd } = this.deps;
    const switches = this.switches;
    await Promise.all([
      this.read(
        'commands',
        () => source.supportedCommands(),
        (answer) => {
          const commands = toCommands(answer);
          if (this.changed('lastCommands', JSON.stringify(commands))) this.deps.emit({ kind: 'commands.updated', commands });
        },
      ),
      this.read(
        'models',
        () => source.supportedModels(),
        (answer) => {
          const models = toModels(answer);
          if (this.changed('lastModels', JSON.stringify(models))) this.deps.emit({ kind: 'models.updated', models });
        },
      ),
      this.read(
        'context usage',
        () => source.getContextUsage({ detail: 'summary' }),
        (answer) => {
          // Begun before a model switch, the answer measured the model that ran before it: the next round's counts.
          if (switches !== this.switches) return;
          const usage = sdkContext.parse(answer);
          if (usage.model !== undefined && usage.model !== '') this.deps.modelReported(usage.model);
          this.deps.emit({
            kind: 'context.updated',
            totalTokens: Math.round(usage.totalTokens),
            maxTokens: Math.round(usage.maxTokens),
            percentage: usage.percentage,
          });
        },
      ),
      this.read(
        'title',
        () => this.deps.sessionInfo(session, { dir: cwd }),
        (answer) => {
          const title = titleOf(answer);
          if (title !== undefined && this.changed('lastTitle', title)) this.deps.emit({ kind: 'session.updated', title });
        },
      ),
    ]);
  }

  /** One read; its failure (or an answer that cannot be understood) is logged, never thrown. */
  private async read<T>(what: string, fetch: () => Promise<T>, publish: (answer: T) => void): Promise<void> {
    try {
      const answer = await fetch();
      if (this.deps.isOpen()) publish(answer);
    } catch (error) {
      if (!this.deps.isOpen()) return; // the query is closing: its pending reads fail, which is no news
      // Only the error's first line: SDK errors name the request, never a prompt or a credential.
      const why = error instanceof z.ZodError ? 'the answer had an unexpected shape' : shortError(error);
      this.deps.log(`side read of the ${what} for session ${this.deps.session} failed: ${why}`);
    }
  }

  private changed(field: 'lastCommands' | 'lastModels' | 'lastTitle', value: string): boolean {
    if (this[field] === value) return false;
    this[field] = value;
    return true;
  }
}
