// The conversations scripts/record-corpus.ts records with each CLI generation. Prompts carry the fake API's
// markers (app/internal/fakeapi/script.go: [write …], [bash …], [tool NAME {JSON}], [status NNN], [recall]).
import { join } from 'node:path';

/** A prompt: text or content blocks; a function gets the scenario's cwd (for absolute paths). */
export type Prompt = string | ContentBlock[] | ((cwd: string) => string);

type ContentBlock = { type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: 'image/png'; data: string } };

export interface Step {
  prompt: Prompt;
  /** Kill the CLI (SIGKILL, its process group) once this file exists in the cwd, instead of awaiting a result. */
  killWhenFileExists?: string;
}

export interface Scenario {
  /** Also the cwd's base name, so the project directory tells the scenario. */
  name: string;
  /** The CLI version prefix that runs it. */
  cli: '1.0' | '2.0' | '2.1';
  covers: string[];
  steps: Step[];
}

/** A 1×1 PNG, as a pasted image arrives. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

// The "[" of the agent's own marker is escaped in the JSON, so the parent prompt starts only the agent.
const agent = (tool: string): string =>
  `[tool ${tool} {"description":"look around","prompt":"\\u005bbash echo from the agent]","subagent_type":"general-purpose"}]`;

// Colours, a line erase and a cursor move: the bytes a terminal would act on.
// JSON-escaped backslashes: printf gets \033 and \n.
const ANSI = String.raw`[tool Bash {"command":"printf '\\033[1;31mred\\033[0m plain\\n\\033[2K\\033[1Aup\\n'","description":"print in colour"}]`;

function tools(cli: Scenario['cli'], withImage: boolean): Scenario {
  const read = (cwd: string): string => `[tool Read {"file_path":"${join(cwd, 'notes.txt')}"}]`;
  const edit = (cwd: string): string => `[tool Edit {"file_path":"${join(cwd, 'notes.txt')}","old_string":"faster","new_string":"much faster"}]`;
  // 1.0.x forgets a Read between stream-json turns ("File has not been read yet"): it reads and edits in one.
  const readThenEdit: Step[] = cli === '1.0' ? [{ prompt: (cwd) => `${read(cwd)} ${edit(cwd)}` }] : [{ prompt: read }, { prompt: edit }];
  const steps: Step[] = [{ prompt: [{ type: 'text', text: '[write notes.txt Release notes: faster.]' }] }, ...readThenEdit, { prompt: ANSI }];
  if (withImage) {
    steps.push({
      prompt: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
    });
  }
  return {
    name: `v${cli.replace('.', '-')}-tools`,
    cli,
    covers: ['prompt as content blocks', ...(withImage ? ['image block'] : []), 'Write/Read/Edit with toolUseResult', 'ANSI escapes in tool output'],
    steps,
  };
}

function subagent(cli: Scenario['cli']): Scenario {
  const layout = { '1.0': 'inline isSidechain lines', '2.0': 'agent-*.jsonl beside the session', '2.1': '<session>/subagents/agent-*.jsonl' }[cli];
  return {
    name: `v${cli.replace('.', '-')}-subagent`,
    cli,
    covers: [`subagent (${layout})`, 'reply stored twice under one message.id'],
    steps: [{ prompt: agent(cli === '2.1' ? 'Agent' : 'Task') }],
  };
}

function compact(cli: Scenario['cli']): Scenario {
  const commands: Step[] = [{ prompt: '/cost' }, ...(cli === '2.1' ? [{ prompt: '/context' }] : [])];
  return {
    name: `v${cli.replace('.', '-')}-compact`,
    cli,
    covers: ['manual compaction (/compact)', 'content before the boundary', 'local commands (<command-name>, <local-command-stdout>)'],
    steps: [
      { prompt: 'Remember the word kiwi.' },
      { prompt: '[bash echo before compaction]' },
      { prompt: '/compact' },
      { prompt: '[recall] What did I say?' },
      ...commands,
    ],
  };
}

function apiError(cli: Scenario['cli']): Scenario {
  return {
    name: `v${cli.replace('.', '-')}-api-error`,
    cli,
    covers: ['API error entry (429, retries exhausted)'],
    steps: [{ prompt: 'Hello' }, { prompt: '[status 429] Hello again' }, { prompt: 'And once more' }],
  };
}

function killedMidTool(cli: Scenario['cli']): Scenario {
  return {
    name: `v${cli.replace('.', '-')}-killed-mid-tool`,
    cli,
    covers: ['session ending mid-tool (tool_use without tool_result)'],
    // The tool waits for stop.flag, which the recorder writes after the kill: it outlives the CLI only that long.
    steps: [{ prompt: 'Hello' }, { prompt: '[bash touch started.flag && until test -e stop.flag; do sleep 0.1; done]', killWhenFileExists: 'started.flag' }],
  };
}

export const scenarios: Scenario[] = (['1.0', '2.0', '2.1'] as const).flatMap((cli) => [
  // 1.0.x stream-json input takes one content block per message: no image there.
  tools(cli, cli !== '1.0'),
  subagent(cli),
  compact(cli),
  apiError(cli),
  killedMidTool(cli),
]);
