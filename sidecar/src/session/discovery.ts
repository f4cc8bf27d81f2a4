// Model discovery for the composer of a session not yet open: a hidden SDK query whose streaming input never
// yields a message, asked only for its models. The CLI answers from its initialize handshake, so no turn runs
// and no Messages API request is made. Nothing of it is kept: no transcript is written.
import type { Options, Query, SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import type { ModelEntry } from '../protocol/events.js';
import { ProtocolFailure } from '../protocol/errors.js';
import { shortError } from '../util/diagnostics.js';
import { ClaudeProcess } from './claudeProcess.js';
import { InputQueue } from './inputQueue.js';
import { toModels } from './sideReads.js';
import { childEnv } from './childEnv.js';

export type DiscoveryQueryFn = (params: { prompt: AsyncIterable<SDKUserMessage>; options: Options }) => Query;

export interface DiscoveryInput {
  cwd: string;
  executable: string;
  env: NodeJS.ProcessEnv;
  query: DiscoveryQueryFn;
  /** Where the CLI's stderr goes (the sidecar's stderr). */
  stderr: (data: string) => void;
}

export interface Discovery {
  models: ModelEntry[];
  /** Resolves once the hidden query and its claude process are gone. */
  closed: Promise<void>;
}

/**
 * Starts the hidden query and resolves with its models as soon as the CLI reports them; the query is torn down
 * in the background (`closed`), so the caller can answer without waiting for the process to exit.
 */
export async function discoverModels(input: DiscoveryInput): Promise<Discovery> {
  const claude = new ClaudeProcess(input.stderr);
  // Never pushed to: the CLI starts, answers control requests, and is closed before any prompt.
  const silence = new InputQueue<SDKUserMessage>();
  const query = input.query({
    prompt: silence,
    options: {
      cwd: input.cwd,
      // The user's settings can narrow the model list (availableModels); the discovery folder has no project.
      settingSources: ['user'],
      persistSession: false,
      env: childEnv(input.env),
      stderr: input.stderr,
      spawnClaudeCodeProcess: claude.spawn,
      pathToClaudeCodeExecutable: input.executable,
    },
  });
  const ended = drain(query);
  const close = async (): Promise<void> => {
    silence.close();
    query.close();
    await ended.catch(() => undefined);
    await claude.stop();
  };
  const endedFirst = ended.then(() => {
    throw new Error('claude exited before it reported its models');
  });
  endedFirst.catch(() => undefined); // once the models are in, the query ending is expected, not an error
  const reported = query.supportedModels();
  reported.catch(() => undefined); // settled by the race below; a late rejection is not news
  let answer: unknown;
  try {
    answer = await Promise.race([reported, endedFirst]);
  } catch (error) {
    await close();
    throw new ProtocolFailure('sdk_error', `model discovery failed: ${shortError(error)}`);
  }
  return { models: toModels(answer), closed: close() };
}

/** Reads the query's messages (there should be none) until it ends; a failure rejects. */
async function drain(query: Query): Promise<void> {
  for await (const _message of query) {
    // A hidden query has no turn; anything it yields is of no use here.
  }
}
