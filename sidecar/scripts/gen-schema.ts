// Writes app/protocol/schema/wire.schema.json and console.json from the zod schemas (run by scripts/gen-protocol).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { consoleSchemaText } from '../src/protocol/consoleSchema.js';
import { wireSchemaText } from '../src/protocol/wireSchema.js';

export const SCHEMA_PATH = fileURLToPath(new URL('../../app/protocol/schema/wire.schema.json', import.meta.url));
export const CONSOLE_PATH = fileURLToPath(new URL('../../app/protocol/schema/console.json', import.meta.url));

writeFileSync(SCHEMA_PATH, wireSchemaText());
console.log(`wrote ${SCHEMA_PATH}`);
writeFileSync(CONSOLE_PATH, consoleSchemaText());
console.log(`wrote ${CONSOLE_PATH}`);
