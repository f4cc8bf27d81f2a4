// Every kind the sidecar may send is made somewhere outside the schema itself (the mapper, the session, the
// runtime): a kind added to the schema that nothing produces fails here, so the schema cannot run ahead of the
// code. (TypeScript checks the other direction: an event body with an unknown kind does not compile.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventSchema } from '../../src/protocol/events.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path.endsWith(join('src', 'protocol')) ? [] : sources(path);
    return path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });
}

describe('event producers', () => {
  const code = sources(join(SIDECAR_ROOT, 'src')).join('\n');
  for (const option of eventSchema.options) {
    const kind = option.shape.kind.value;
    it(`something makes ${kind}`, () => {
      expect(code.includes(`kind: '${kind}'`), `nothing outside src/protocol makes a ${kind} event`).toBe(true);
    });
  }
});
