// A reply payload that carries its own JSON: a transcript page is thousands of events already serialised to be
// measured (bounds.ts fitEventSized), and serialising the page again cost the sidecar a fifth of an index build.
// The JSON rides under a symbol, which JSON.stringify and every reader of the object ignore, so the payload is
// still the plain object for tests and in-process callers; the line writer writes the JSON instead.
const RAW_JSON = Symbol('rawJSON');

/** payload, marked with json: exactly JSON.stringify(payload), made by the caller from parts it serialised. */
export function withRawJSON<T extends object>(payload: T, json: string): T {
  Object.defineProperty(payload, RAW_JSON, { value: json, enumerable: false });
  return payload;
}

/** The JSON withRawJSON gave payload, if any. */
export function rawJSONOf(payload: object): string | undefined {
  const json = (payload as { [RAW_JSON]?: unknown })[RAW_JSON];
  return typeof json === 'string' ? json : undefined;
}
