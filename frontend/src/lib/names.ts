// The words people read for the CLI's identifiers: permission modes and model aliases.
import type { ModelEntry, PermissionMode } from '../protocol/events';

export const MODE_LABELS: Record<PermissionMode, string> = {
  default: 'Ask before tools',
  acceptEdits: 'Accept edits',
  plan: 'Plan only',
  dontAsk: 'Don’t ask (deny)',
  auto: 'Auto',
  bypassPermissions: 'Bypass permissions',
};

/** Names for the aliases the CLI always takes, until it lists its own models. */
const ALIAS_NAMES: Record<string, string> = { default: 'Default', opus: 'Opus', sonnet: 'Sonnet', haiku: 'Haiku', fable: 'Fable' };

/** A model's name for people: the CLI's display name when it listed the model, else the alias's, else the id. */
export function modelName(value: string, listed: readonly ModelEntry[] = []): string {
  return listed.find((m) => m.value === value)?.displayName ?? ALIAS_NAMES[value] ?? value;
}
