// What a row can ask of the conversation around it (rewind and fork open dialogs or start sessions there).
import { createContext, useContext } from 'react';

export interface ConversationActions {
  sessionId: string;
  /** False for a session that cannot be changed from here (none so far; kept for read-only views). */
  editable: boolean;
  rewind(uuid: string, prompt: string): void;
  fork(uuid: string): void;
}

export const ConversationContext = createContext<ConversationActions | undefined>(undefined);

export function useConversation(): ConversationActions {
  const ctx = useContext(ConversationContext);
  if (ctx === undefined) throw new Error('rows need a ConversationContext');
  return ctx;
}
