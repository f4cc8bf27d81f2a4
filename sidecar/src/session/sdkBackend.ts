// Runs sessions, lists and history through the real Claude Agent SDK.
import { query } from '@anthropic-ai/claude-agent-sdk';
import { readHistory } from '../history/history.js';
import { readSessions } from '../history/sessions.js';
import type { EmitEvent, Event } from '../protocol/events.js';
import type { HistoryPayload, ListSessionsPayload, SessionInfo, StartPayload } from '../protocol/schemas.js';
import { resolveSdkBinary, selectExecutable } from './executable.js';
import { SdkSession } from './session.js';

export class SdkBackend {
  constructor(private readonly now: () => Date) {}

  async start(
    payload: StartPayload,
    context: { emit: EmitEvent; onEnded: () => void },
  ): Promise<{ handle: SdkSession; executable: string }> {
    const choice = selectExecutable({ env: process.env, hostPath: payload.executable, resolveSdkBinary });
    const handle = await SdkSession.open({
      start: payload,
      executable: choice.path,
      emit: context.emit,
      now: this.now,
      query,
      env: process.env,
      // The CLI's diagnostics stay on the sidecar's stderr, never stdout.
      stderr: (data) => process.stderr.write(data),
      onEnded: context.onEnded,
    });
    return { handle, executable: choice.path };
  }

  listSessions(payload: ListSessionsPayload): Promise<SessionInfo[]> {
    return readSessions(payload);
  }

  history(payload: HistoryPayload): Promise<Event[]> {
    return readHistory(payload, this.now);
  }
}
