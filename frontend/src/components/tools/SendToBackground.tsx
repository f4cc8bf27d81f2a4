// "Background" on a running Bash command or agent: Claude Code moves it to the background (Ctrl+B in its terminal)
// and the turn goes on; the work then shows among the session's background tasks.
import { useSession, useStore } from '../../store/hooks';
import type { ToolItem } from '../../store/types';
import { TOOL_KIND_FACTS } from '../../lib/toolKinds';
import { useConversation } from '../conversation/actions';

export function SendToBackground({ item }: { item: ToolItem }) {
  const store = useStore();
  const { sessionId } = useConversation();
  const live = useSession(sessionId)?.live === true;
  if (!live || item.status !== 'running' || !TOOL_KIND_FACTS[item.toolKind].backgroundable || isBackgrounded(item.input)) return null;
  return (
    <button
      type="button"
      className="small"
      onClick={() => void store.sendToBackground(sessionId, item.toolUseId)}
      title="Let it run in the background while Claude goes on"
      data-testid="send-to-background"
    >
      Background
    </button>
  );
}

function isBackgrounded(input: unknown): boolean {
  return typeof input === 'object' && input !== null && (input as { run_in_background?: unknown }).run_in_background === true;
}
