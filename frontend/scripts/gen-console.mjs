// Generates frontend/src/protocol/api.gen.ts from the console API's contract (app/protocol/schema/console.json,
// rendered from sidecar/src/protocol/console.ts): its enums and shapes, the call set with each call's params and
// result (ApiMethods), the pushes' payloads and the error codes. Wire shapes the contract reuses are imported from
// wire.gen.ts, or declared here when the console is the only one reading them. Run by gen-protocol.mjs.

import { constName, plainType } from './schemaTypes.mjs';

const LOCAL = '#/$defs/';
const WIRE = 'wire.schema.json#/$defs/';

const doc = (text, indent = '') => (text ? [`${indent}/** ${text} */`] : []);

/**
 * @param {object} con console.json
 * @param {object} wire wire.schema.json
 * @param {Set<string>} wireExports the names wire.gen.ts declares
 */
function makeTyper(con, wire, wireExports) {
  const imports = new Set();
  const wireLocal = new Map(); // wire shapes declared in api.gen.ts: name → schema
  const errorCodes = con['x-error-codes'].$ref.slice(LOCAL.length);
  // Inside a wire shape, `#/$defs/…` points into wire.schema.json.
  const tsType = (schema, inWire = false) => {
    if (inWire && schema.$ref?.startsWith(LOCAL)) return tsType({ $ref: WIRE + schema.$ref.slice(LOCAL.length) });
    if (schema.$ref?.startsWith(WIRE)) {
      const name = schema.$ref.slice(WIRE.length);
      // Shapes that carry events take the event type as a parameter: the console reads events as it receives them
      // (events.ts readEvent), possibly of a kind this build lacks.
      if (name === 'Event') return 'E';
      if (wire.$defs[name] === undefined) throw new Error(`console.json refers to wire $defs ${name}, which is missing`);
      if (wireExports.has(name)) imports.add(name);
      else if (!wireLocal.has(name)) {
        wireLocal.set(name, wire.$defs[name]);
        walk(wire.$defs[name]);
      }
      return name;
    }
    if (schema.$ref?.startsWith(LOCAL)) {
      const name = schema.$ref.slice(LOCAL.length);
      if (con.$defs[name] === undefined) throw new Error(`no console $defs entry ${name}`);
      if (name === errorCodes) return 'ConsoleErrorCode';
      return carriesEvents(name) ? `${name}<E>` : name;
    }
    if (schema.$ref !== undefined) throw new Error(`unsupported reference ${schema.$ref}`);
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.map((v) => `'${v}'`).join(' | ');
    return plainType(schema, (s) => tsType(s, inWire), 'gen-console.mjs');
  };
  // A wire shape declared here may reach others: type them too (so they are imported or declared).
  const walk = (schema) => {
    for (const prop of Object.values(schema.properties ?? {})) tsType(prop, true);
  };
  // Whether a console shape reaches an event (directly or through another shape).
  const memo = new Map();
  const reaches = (schema) =>
    schema === undefined
      ? false
      : schema.$ref === `${WIRE}Event` ||
        (schema.$ref?.startsWith(LOCAL) === true && carriesEvents(schema.$ref.slice(LOCAL.length))) ||
        Object.values(schema.properties ?? {}).some(reaches) ||
        reaches(schema.items);
  const carriesEvents = (name) => {
    if (!memo.has(name)) {
      memo.set(name, false);
      memo.set(name, reaches(con.$defs[name]));
    }
    return memo.get(name);
  };
  return { tsType, imports, wireLocal, errorCodes, carriesEvents };
}

function shape(name, schema, tsType, inWire = false, generic = false) {
  const props = Object.entries(schema.properties ?? {});
  if (props.length === 0) return [...doc(schema.description && `${name} ${schema.description}.`), `export type ${name} = Record<string, never>;`, ''];
  const required = new Set(schema.required ?? []);
  const fields = props.map(([field, prop]) => `  ${field}${required.has(field) ? '' : '?'}: ${tsType(prop, inWire)};`);
  const params = generic ? '<E = WireEvent>' : '';
  return [...doc(schema.description && `${name} ${schema.description}.`), `export interface ${name}${params} {`, ...fields, '}', ''];
}

/** The text of api.gen.ts. */
export function generateConsole(consoleText, schemaText, wireExports) {
  const con = JSON.parse(consoleText);
  const wire = JSON.parse(schemaText);
  const { tsType, imports, wireLocal, errorCodes, carriesEvents } = makeTyper(con, wire, wireExports);
  imports.add('WireEvent');
  const body = [];
  for (const name of Object.keys(con.$defs).sort()) {
    const def = con.$defs[name];
    if (name === errorCodes) continue;
    if (Array.isArray(def.enum)) {
      body.push(...doc(def.description && `${name} ${def.description}.`));
      body.push(`export const ${constName(name)} = ${JSON.stringify(def.enum)} as const;`, `export type ${name} = (typeof ${constName(name)})[number];`, '');
    } else body.push(...shape(name, def, tsType, false, carriesEvents(name)));
  }
  const calls = con['x-calls'].flatMap((c) => [...doc(c.doc, '  '), `  ${c.method}: { params: ${tsType(c.params)}; result: ${tsType(c.result)} };`]);
  const pushes = con['x-pushes'].flatMap((p) => [...doc(`${p.doc} Wails: "${p.wails}".`, '  '), `  ${p.type}: ${tsType(p.payload)};`]);
  const wireShapes = [...wireLocal.keys()].sort().flatMap((name) => shape(name, wireLocal.get(name), tsType, true));
  return [
    '// GENERATED by frontend/scripts/gen-console.mjs from app/protocol/schema/console.json; do not edit.',
    '// Change the console API\'s contract (sidecar/src/protocol/console.ts), then run scripts/gen-protocol (API.md, "Adding a call").',
    '',
    `import type { ${[...imports].sort().join(', ')} } from './wire.gen';`,
    '',
    ...body,
    "// The sidecar's shapes the console reads as they are.",
    ...wireShapes,
    `export const CONSOLE_METHODS = ${JSON.stringify(con['x-calls'].map((c) => c.method))} as const;`,
    'export type ConsoleMethod = (typeof CONSOLE_METHODS)[number];',
    '',
    `export const CONSOLE_ERROR_CODES = ${JSON.stringify(con.$defs[errorCodes].enum)} as const;`,
    'export type ConsoleErrorCode = (typeof CONSOLE_ERROR_CODES)[number];',
    '',
    '/** Every call: its params and result, keyed by method name (E: how the reader types the events results carry). */',
    'export interface ApiMethods<E = WireEvent> {',
    ...calls,
    '}',
    '',
    "/** What the host pushes unasked: each push's payload, keyed by its WebSocket message type. */",
    'export interface ConsolePushes<E = WireEvent> {',
    ...pushes,
    '}',
    '',
  ].join('\n');
}
