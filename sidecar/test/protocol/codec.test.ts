// The bounded line reader and request decoding.
import { describe, expect, it } from 'vitest';
import { decodeLine } from '../../src/protocol/codec.js';
import { BoundedLineReader, HEAD_BYTES } from '../../src/protocol/lineReader.js';
import { MAX_LINE_BYTES, PROTOCOL_VERSION } from '../../src/protocol/version.js';

function collect(maxBytes: number) {
  const seen: Array<string | 'TOO_LONG'> = [];
  const reader = new BoundedLineReader(maxBytes, { line: (t) => seen.push(t), tooLong: () => seen.push('TOO_LONG') });
  return { seen, reader };
}

describe('BoundedLineReader', () => {
  it('splits lines across chunk boundaries and handles CRLF', () => {
    const { seen, reader } = collect(100);
    for (const piece of ['{"a"', ':1}\n{"b":2}\r', '\n\n{"c"', ':3}']) reader.push(Buffer.from(piece));
    reader.end();
    expect(seen).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const { seen, reader } = collect(100);
    const bytes = Buffer.from('"héllo — ✓"\n');
    reader.push(bytes.subarray(0, 3));
    reader.push(bytes.subarray(3, 13));
    reader.push(bytes.subarray(13));
    expect(seen).toEqual(['"héllo — ✓"']);
  });

  it('accepts a line of exactly the bound and drops one byte more', () => {
    const { seen, reader } = collect(10);
    reader.push(Buffer.from(`${'a'.repeat(10)}\n${'b'.repeat(11)}\nok\n`));
    expect(seen).toEqual(['a'.repeat(10), 'TOO_LONG', 'ok']);
  });

  it('drops a 16 MiB line fed in chunks without buffering it, reports it once, and serves the next line', () => {
    const { seen, reader } = collect(MAX_LINE_BYTES);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let sent = 0; sent < 16 * 1024 * 1024; sent += chunk.length) reader.push(chunk);
    // Nothing is kept of the overlong line: the reader holds no parts while discarding.
    expect((reader as unknown as { parts: Buffer[] }).parts.length).toBe(0);
    reader.push(Buffer.from('\n{"next":true}\n'));
    expect(seen).toEqual(['TOO_LONG', '{"next":true}']);
  });

  it('reports an overlong last line without a newline at the end of input', () => {
    const { seen, reader } = collect(4);
    reader.push(Buffer.from('12345'));
    reader.end();
    expect(seen).toEqual(['TOO_LONG']);
  });

  it('hands over the first bytes of an overlong line, across chunks, so its id can be answered', () => {
    const heads: string[] = [];
    const reader = new BoundedLineReader(300, { line: () => {}, tooLong: (head) => heads.push(head) });
    const line = `{"v":${PROTOCOL_VERSION},"id":"42","type":"exec","payload":{"prompt":"${'<'.repeat(400)}"}}\n`;
    reader.push(Buffer.from(line.slice(0, 10)));
    reader.push(Buffer.from(line.slice(10)));
    expect(heads).toEqual([line.slice(0, HEAD_BYTES)]);
  });
});

describe('decodeLine', () => {
  const session = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';

  it('accepts a valid request and ignores keys it does not know', () => {
    const decoded = decodeLine(JSON.stringify({ v: PROTOCOL_VERSION, id: 'a', type: 'close', payload: { session, future: 1 } }));
    expect(decoded).toEqual({ kind: 'request', request: { v: PROTOCOL_VERSION, id: 'a', type: 'close', payload: { session } } });
  });

  it('names the problem in a bad request', () => {
    const decoded = decodeLine(JSON.stringify({ v: PROTOCOL_VERSION, id: 'a', type: 'exec', payload: { session: 'not-a-uuid', turn: 't', prompt: 'p' } }));
    expect(decoded).toMatchObject({ kind: 'reject', id: 'a', code: 'bad_request' });
    expect(decoded.kind === 'reject' && decoded.message).toMatch(/payload\.session/);
  });

  it('rejects start with both resume and forkFrom, and "at" without either', () => {
    const both = decodeLine(JSON.stringify({ v: PROTOCOL_VERSION, id: 'a', type: 'start', payload: { session, cwd: '/p', resume: true, forkFrom: session } }));
    expect(both).toMatchObject({ kind: 'reject', code: 'bad_request' });
    const at = decodeLine(JSON.stringify({ v: PROTOCOL_VERSION, id: 'b', type: 'start', payload: { session, cwd: '/p', at: 'x' } }));
    expect(at).toMatchObject({ kind: 'reject', code: 'bad_request' });
  });

  it('reports lines that are not objects as protocol errors', () => {
    expect(decodeLine('[1,2]')).toMatchObject({ kind: 'protocol_error', code: 'bad_request' });
    expect(decodeLine('null')).toMatchObject({ kind: 'protocol_error', code: 'bad_request' });
  });

  it('rejects a wrong version before looking at the shape', () => {
    expect(decodeLine(`{"v":${PROTOCOL_VERSION + 1},"id":"z","type":"nonsense"}`)).toMatchObject({ kind: 'reject', id: 'z', code: 'unsupported_version' });
    expect(decodeLine('{"v":null,"type":"exec"}')).toMatchObject({ kind: 'protocol_error', code: 'unsupported_version' });
  });
});
