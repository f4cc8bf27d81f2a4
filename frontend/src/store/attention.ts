// What a session's new events ask of the person: marks in the sidebar and notifications. A session needs you
// while it has a request waiting (read from its state, so the mark stays until the request is answered, whichever
// session is shown meanwhile); a turn that ended out of sight is marked done until the session is viewed. A
// notification names the tool and what it would do (a command, a file).
import type { ConsoleEvent, Json } from '../protocol/events';
import { projectName } from './sidebar';
import type { ConsoleState, SessionState } from './types';

/** A notification to raise: the tag replaces an earlier one of the same session and kind. */
export interface Notice {
  title: string;
  body: string;
  tag: string;
  session: string;
}

function field(input: Json, name: string): string | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const v = (input as Record<string, Json>)[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** One line of at most 120 characters. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** "Bash: npm test", "Write: src/a.ts", else the tool and the request's own title. */
export function requestSummary(toolName: string, input: Json, title?: string): string {
  const what = field(input, 'command') ?? field(input, 'file_path') ?? field(input, 'path') ?? field(input, 'url') ?? field(input, 'pattern');
  if (what !== undefined) return oneLine(`${toolName}: ${what}`);
  return oneLine(title !== undefined && title !== '' ? `${toolName}: ${title}` : toolName);
}

export interface Attention {
  marks: ConsoleState['marks'];
  notices: Notice[];
}

/** Marks and notices for one session's events; background says the person is not looking at it. */
export function attentionFor(marks: ConsoleState['marks'], s: SessionState, events: readonly ConsoleEvent[], background: boolean): Attention {
  let next = marks;
  const notices: Notice[] = [];
  const title = s.title ?? projectName(s.cwd);
  for (const ev of events) {
    if (ev.kind === 'permission.requested' && background) {
      notices.push({ title: `${title} needs you`, body: requestSummary(ev.toolName, ev.input, ev.title), tag: `perm-${s.id}`, session: s.id });
    } else if ((ev.kind === 'turn.completed' || ev.kind === 'turn.failed') && background) {
      if (s.pending.length === 0) next = { ...next, [s.id]: 'finished' };
      notices.push({
        title: `${title} ${ev.kind === 'turn.completed' ? 'finished' : 'failed'}`,
        body: `In ${projectName(s.cwd)}`,
        tag: `done-${s.id}`,
        session: s.id,
      });
    }
  }
  return { marks: next, notices };
}

/** A fork's name: "Fork of <title>", never "Fork of Fork of …". */
export function forkTitle(parent: string): string {
  return parent.startsWith('Fork of ') ? parent : `Fork of ${parent}`;
}
