// Reserves stdout for protocol lines. Imported first by main.ts so it runs before any other module (the SDK
// included) is evaluated: afterwards console.* and process.stdout.write land on stderr, and only the writer
// returned here reaches the real stdout.
import { format } from 'node:util';
import type { RawWrite } from '../protocol/lineWriter.js';

const realWrite = process.stdout.write.bind(process.stdout);

/** The only path to the real stdout. */
export const protocolWrite: RawWrite = (data, done) => {
  realWrite(data, done);
};

const toStderr = (...args: unknown[]): void => {
  process.stderr.write(`${format(...args)}\n`);
};
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
console.warn = toStderr;
console.trace = toStderr;
console.dir = (item: unknown): void => toStderr(item);

process.stdout.write = ((chunk: unknown, ...rest: unknown[]): boolean =>
  (process.stderr.write as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write;
