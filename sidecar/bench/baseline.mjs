// The runtime bench's baseline (scripts/bench runtime): the raw SDK, as a developer would call it, with the
// options Baton's sidecar uses (src/session/queryOptions.ts) and the same claude, against the same scripted API.
// It prints one JSON line per mark on stdout, times in ms since this process started:
//   {"mark":"result","t":…}                           one turn: the SDK's result
//   {"mark":"deltas","count":N,"firstToLastMs":…,"cpuMs":…}
//                                                    the text deltas the iteration saw, first to last, and the
//                                                    CPU this process spent from the first to the result
// Usage: node baseline.mjs --cwd DIR --executable CLAUDE --prompt TEXT
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { query } from '@anthropic-ai/claude-agent-sdk';

function option(name) {
  const at = process.argv.indexOf(name);
  if (at === -1 || at + 1 >= process.argv.length) throw new Error(`missing ${name}`);
  return process.argv[at + 1];
}

const cwd = option('--cwd');
const executable = option('--executable');
const prompt = option('--prompt');
const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;

// Streaming input that stays open until the result, as the sidecar's input queue does.
let finish;
const finished = new Promise((resolve) => (finish = resolve));
async function* input() {
  yield { type: 'user', message: { role: 'user', content: prompt }, parent_tool_use_id: null, session_id: '' };
  await finished;
}

const q = query({
  prompt: input(),
  options: {
    cwd,
    settingSources: ['user', 'project', 'local'],
    systemPrompt: { type: 'preset', preset: 'claude_code' },
    includePartialMessages: true,
    thinking: { type: 'adaptive', display: 'summarized' },
    ...(!runningAsRoot || process.env.IS_SANDBOX === '1' ? { allowDangerouslySkipPermissions: true } : {}),
    permissionMode: 'default',
    enableFileCheckpointing: true,
    env: { ...process.env, CLAUDE_CODE_ENABLE_TODO_TOOLS: '1' },
    stderr: () => {},
    extraArgs: { 'replay-user-messages': null },
    pathToClaudeCodeExecutable: executable,
    sessionId: randomUUID(),
    canUseTool: async (_name, input) => ({ behavior: 'allow', updatedInput: input }),
  },
});

let deltas = 0;
let first = 0;
let last = 0;
let cpuAtFirst;
for await (const message of q) {
  if (message.type === 'stream_event' && message.event.type === 'content_block_delta' && message.event.delta.type === 'text_delta') {
    last = performance.now();
    if (deltas === 0) {
      first = last;
      cpuAtFirst = process.cpuUsage();
    }
    deltas++;
  }
  if (message.type === 'result') {
    const t = performance.now();
    if (deltas > 0) {
      const cpu = process.cpuUsage(cpuAtFirst);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      process.stdout.write(`${JSON.stringify({ mark: 'deltas', count: deltas, firstToLastMs: last - first, cpuMs })}\n`);
    }
    process.stdout.write(`${JSON.stringify({ mark: 'result', t, subtype: message.subtype })}\n`);
    finish();
    break;
  }
}
q.close();
