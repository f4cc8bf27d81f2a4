import { describe, expect, it } from 'vitest';
import { LineWriter, MAX_BATCH_LINES } from '../../src/protocol/lineWriter.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';

const line = (id: string) => ({ v: PROTOCOL_VERSION as typeof PROTOCOL_VERSION, id, type: 'ok' as const, payload: {} });

describe('LineWriter', () => {
  it('writes the lines sent in one turn of the event loop in one write, in order, and flush waits for them', async () => {
    const writes: string[] = [];
    const done: Array<() => void> = [];
    const deferred: Array<() => void> = [];
    const writer = new LineWriter(
      (data, cb) => {
        writes.push(data);
        done.push(() => cb());
      },
      (run) => deferred.push(run),
    );
    writer.send(line('a'));
    writer.send(line('b'));
    expect(writes).toEqual([]); // nothing before the turn ends
    expect(deferred).toHaveLength(1);
    let flushed = false;
    const flush = writer.flush().then(() => (flushed = true));
    deferred.shift()!();
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['a', 'b']);
    writer.send(line('c'));
    deferred.shift()!();
    expect(writes).toHaveLength(2);
    done.shift()!();
    await Promise.resolve();
    expect(flushed).toBe(false); // c is not written yet
    done.shift()!();
    await flush;
    expect(flushed).toBe(true);
  });

  it('writes a long burst every MAX_BATCH_LINES lines without waiting for the turn to end', () => {
    const writes: string[] = [];
    const writer = new LineWriter(
      (data) => writes.push(data),
      () => undefined, // the turn never ends in this test
    );
    for (let i = 0; i < MAX_BATCH_LINES * 2 + 1; i++) writer.send(line(String(i)));
    expect(writes.map((w) => w.split('\n').length - 1)).toEqual([MAX_BATCH_LINES, MAX_BATCH_LINES]);
  });

  it('flushes at once when nothing is outstanding', async () => {
    const writer = new LineWriter(() => undefined, () => undefined);
    await expect(writer.flush()).resolves.toBeUndefined();
  });
});
