// Says in words what "always allow" would add: the permission updates the CLI suggested (PermissionUpdate).
import { MODE_LABELS } from '../../lib/names';
import { PERMISSION_MODES, type Json, type PermissionMode } from '../../protocol/events';

function obj(value: Json): Record<string, Json> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

const DESTINATIONS: Record<string, string> = {
  session: 'for this session',
  localSettings: 'in this project’s local settings',
  projectSettings: 'in this project’s settings',
  userSettings: 'in your user settings',
  cliArg: 'for this run',
};

function rule(value: Json): string | undefined {
  const r = obj(value);
  if (r === undefined || typeof r['toolName'] !== 'string') return undefined;
  return typeof r['ruleContent'] === 'string' && r['ruleContent'] !== '' ? `${r['toolName']}(${r['ruleContent']})` : r['toolName'];
}

function modeLabel(mode: Json | undefined): string {
  return typeof mode === 'string' && (PERMISSION_MODES as readonly string[]).includes(mode) ? MODE_LABELS[mode as PermissionMode] : String(mode);
}

export function describeSuggestion(value: Json): string {
  const s = obj(value);
  if (s === undefined) return JSON.stringify(value);
  const where = typeof s['destination'] === 'string' ? (DESTINATIONS[s['destination']] ?? `in ${s['destination']}`) : '';
  switch (s['type']) {
    case 'setMode':
      return `switch permissions to “${modeLabel(s['mode'])}” ${where}`.trim();
    case 'addRules':
    case 'replaceRules': {
      const rules = Array.isArray(s['rules']) ? s['rules'].map(rule).filter((r) => r !== undefined) : [];
      const verb = s['behavior'] === 'deny' ? 'deny' : s['behavior'] === 'ask' ? 'ask for' : 'allow';
      return `${verb} ${rules.join(', ') || 'these calls'} ${where}`.trim();
    }
    case 'addDirectories': {
      const dirs = Array.isArray(s['directories']) ? s['directories'].join(', ') : '';
      return `allow access to ${dirs} ${where}`.trim();
    }
    default:
      return JSON.stringify(value);
  }
}

export function describeSuggestions(values: readonly Json[]): string {
  return values.map(describeSuggestion).join('; ');
}
