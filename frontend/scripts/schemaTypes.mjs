// What both generators (gen-protocol.mjs for wire.gen.ts, gen-console.mjs for api.gen.ts) write the same way: a
// schema's own JSON type in TypeScript, and the names of enum value lists.

/** PermissionMode → PERMISSION_MODE_VALUES */
export const constName = (name) => `${name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_VALUES`;

/** A union or nullable type in parentheses, so `[]` applies to the whole. */
export const wrap = (t) => (/[ |]/.test(t) ? `(${t})` : t);

/**
 * The TypeScript for a schema with no reference, const or enum (the caller handles those): a scalar, a list, or
 * either or null. `tsType` types nested schemas the caller's way; `script` names the generator to extend.
 */
export function plainType(schema, tsType, script) {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 2 && types[1] === 'null') return `${tsType({ ...schema, type: types[0] })} | null`;
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `${wrap(tsType(schema.items))}[]`;
    default:
      throw new Error(`unsupported schema type ${JSON.stringify(schema.type)} (extend frontend/scripts/${script})`);
  }
}
