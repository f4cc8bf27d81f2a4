import type { z } from 'zod';

export type JsonValue = z.core.util.JSONType;

/** A JSON-safe copy: values from the SDK are parsed JSON already, the round trip drops what JSON cannot hold. */
export function toJsonValue(value: unknown): JsonValue {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}
