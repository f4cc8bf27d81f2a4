// A synthetic long session for the benchmark: turns of a prompt, a Markdown reply with code, a Bash call, an
// Edit with a diff, and a closing reply. Deterministic, so runs compare.
import type { ConsoleEvent } from '../../src/protocol/events';

export const BENCH_SESSION = 'b0000000-0000-4000-8000-000000000001';
const T = '2026-01-01T00:00:00.000Z';

/** The text of the session's last message; the benchmark waits for it to be on screen. */
export const TAIL_TEXT = 'Tail of the benchmark session.';

/**
 * Events for a session whose transcript holds `messages` rows: the start notice, turns of six rows (prompt,
 * reply, Bash, Edit, reply, turn end), short replies to make the count exact, and the last reply.
 */
export function syntheticEvents(messages: number): ConsoleEvent[] {
  const events: ConsoleEvent[] = [
    { kind: 'session.started', session: BENCH_SESSION, time: T, cwd: '/home/user/project', model: 'default', permissionMode: 'default', resumed: false },
  ];
  const turns = Math.max(0, Math.floor((messages - 2) / 6));
  for (let turn = 1; turn <= turns; turn++) {
    const base = { session: BENCH_SESSION, turn: `t${turn}`, time: T };
    const mod = turn % 37;
    const path = `/home/user/project/src/module${turn}.js`;
    const before = `export function total(items) {\n  let total = 0;\n  for (let i = 0; i <= items.length; i++) {\n    total += items[i].price;\n  }\n  return total;\n}\n`;
    events.push(
      { ...base, kind: 'turn.started', prompt: `Prompt ${turn}: please look at module ${mod} and fix what is wrong.`, uuid: `u-${turn}` },
      {
        ...base,
        kind: 'message.completed',
        role: 'assistant',
        messageId: `m${turn}a`,
        uuid: `a-${turn}`,
        text: `Reply ${turn}. Here is what I found in **module ${mod}**:\n\n- the loop runs one time too many\n- a \`null\` is not checked\n\n\`\`\`ts\nfor (let i = 0; i < items.length; i++) {\n  total += items[i]?.price ?? 0;\n}\n\`\`\`\n`,
      },
      {
        ...base,
        kind: 'tool.started',
        toolUseId: `b${turn}`,
        name: 'Bash',
        toolKind: 'shell',
        title: 'Bash',
        input: { command: `npm test -- module${mod}`, description: 'Run the tests' },
      },
      {
        ...base,
        kind: 'tool.completed',
        toolUseId: `b${turn}`,
        name: 'Bash',
        output: `PASS module${mod}.test.ts\n  ✓ adds prices (3 ms)\n  ✓ skips nulls (1 ms)\n\nTests: 2 passed, 2 total`,
      },
      {
        ...base,
        kind: 'tool.started',
        toolUseId: `e${turn}`,
        name: 'Edit',
        toolKind: 'edit',
        title: 'Edit',
        input: { file_path: path, old_string: 'i <= items.length', new_string: 'i < items.length' },
        fileBefore: { path, text: before },
      },
      { ...base, kind: 'tool.completed', toolUseId: `e${turn}`, name: 'Edit', output: 'The file has been updated.' },
      { ...base, kind: 'message.completed', role: 'assistant', messageId: `m${turn}b`, uuid: `b-${turn}`, text: `Fixed module ${mod}; the tests pass.` },
      { ...base, kind: 'turn.completed', durationMs: 1200, numTurns: 3, costUsd: 0.02 },
    );
  }
  for (let extra = 2 + turns * 6; extra < messages; extra++) {
    events.push({ kind: 'message.completed', session: BENCH_SESSION, time: T, role: 'assistant', messageId: `x${extra}`, text: `Note ${extra}.` });
  }
  events.push({ kind: 'message.completed', session: BENCH_SESSION, time: T, role: 'assistant', messageId: 'tail', text: TAIL_TEXT });
  return events.map((ev, i) => ({ ...ev, seq: i + 1 }));
}
