// Writes app/protocol/schema/wire.schema.json and console.json from the zod schemas, and from the kinds' metadata
// (kindMeta.ts) each kind's first fixture line and PROTOCOL.md's kinds table (run by scripts/gen-protocol).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { consoleSchemaText } from '../src/protocol/consoleSchema.js';
import { type FixtureFile, fixtureText, protocolDocText } from '../src/protocol/kindOutputs.js';
import { wireSchemaText } from '../src/protocol/wireSchema.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const SCHEMA_PATH = here('../../app/protocol/schema/wire.schema.json');
export const CONSOLE_PATH = here('../../app/protocol/schema/console.json');
const PROTOCOL_DOC = here('../../app/protocol/PROTOCOL.md');

function write(path: string, text: string): void {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}

write(SCHEMA_PATH, wireSchemaText());
write(CONSOLE_PATH, consoleSchemaText());
for (const file of ['valid.ndjson', 'host.ndjson'] as FixtureFile[]) {
  const path = here(`../testdata/protocol/${file}`);
  write(path, fixtureText(readFileSync(path, 'utf8'), file));
}
write(PROTOCOL_DOC, protocolDocText(readFileSync(PROTOCOL_DOC, 'utf8')));
