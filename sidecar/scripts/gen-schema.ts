// Writes app/protocol/schema/wire.schema.json from the zod schemas, and from the kinds' metadata (kindMeta.ts) each
// kind's first fixture line and PROTOCOL.md's kinds table (run by scripts/gen-protocol).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type FixtureFile, fixtureText, protocolDocText } from '../src/protocol/kindOutputs.js';
import { wireSchemaText } from '../src/protocol/wireSchema.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const SCHEMA_PATH = here('../../app/protocol/schema/wire.schema.json');
const PROTOCOL_DOC = here('../../app/protocol/PROTOCOL.md');

function write(path: string, text: string): void {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}

write(SCHEMA_PATH, wireSchemaText());
for (const file of ['valid.ndjson', 'host.ndjson'] as FixtureFile[]) {
  const path = here(`../testdata/protocol/${file}`);
  write(path, fixtureText(readFileSync(path, 'utf8'), file));
}
write(PROTOCOL_DOC, protocolDocText(readFileSync(PROTOCOL_DOC, 'utf8')));
