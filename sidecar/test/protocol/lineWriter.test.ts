import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/protocol/coalesce.js';
import { SerialisedLine, type WireLine } from '../../src/protocol/codec.js';
import { BURST_HOLD_MS, BURST_PIECES, BURST_WINDOW_MS, LineWriter, MAX_BATCH_LINES, MAX_BATCH_WAIT_MS } from '../../src/protocol/lineWriter.js';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';

const line = (id: string): WireLine => ({ v: PROTOCOL_VERSION, id, type: 'ok', payload: {} });

const delta = (text: string, time: string): WireLine => ({
  v: PROTOCOL_VERSION,
  type: 'event',
  event: { kind: 'message.delta', session: 's', turn: 't', time, ephemeral: true, messageId: 'm', index: 0, block: 'text', text },
});

/** What a write carries, as text (a serialised line's bytes are UTF-8). */
const asText = (data: string | Uint8Array): string => (typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));

const linesOf = (data: string): WireLine[] =>
  data
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as WireLine);

/** A writer whose deferred writes, burst holds and clock the test runs by hand (clock.now in milliseconds). */
function heldWriter({ merge = true } = {}) {
  const writes: string[] = [];
  const deferred: Array<() => void> = [];
  const held: Array<{ run: () => void; ms: number }> = [];
  const clock = { now: 0 };
  const writer = new LineWriter((data) => writes.push(asText(data)), {
    defer: (run) => deferred.push(run),
    hold: (run, ms) => held.push({ run, ms }),
    ...(merge ? { merge: coalesce } : {}),
    clock: () => clock.now,
  });
  return { writes, deferred, held, clock, writer };
}

describe('LineWriter', () => {
  it('writes the lines sent in one turn of the event loop in one write, in order, and flush waits for them', async () => {
    const writes: string[] = [];
    const done: Array<() => void> = [];
    const deferred: Array<() => void> = [];
    const writer = new LineWriter(
      (data, cb) => {
        writes.push(asText(data));
        done.push(() => cb());
      },
      { defer: (run) => deferred.push(run), clock: () => 0 },
    );
    writer.send(line('a'));
    writer.send(line('b'));
    expect(writes).toEqual([]); // nothing before the turn ends
    expect(deferred).toHaveLength(1);
    let flushed = false;
    const flush = writer.flush().then(() => (flushed = true));
    deferred.shift()!();
    expect(writes).toHaveLength(1);
    expect(linesOf(writes[0]!).map((l) => ('id' in l ? l.id : ''))).toEqual(['a', 'b']);
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
    const writer = new LineWriter((data) => writes.push(asText(data)), {
      defer: () => undefined, // the turn never ends in this test
      clock: () => 0,
    });
    for (let i = 0; i < MAX_BATCH_LINES * 2 + 1; i++) writer.send(line(String(i)));
    expect(writes.map((w) => linesOf(w).length)).toEqual([MAX_BATCH_LINES, MAX_BATCH_LINES]);
  });

  it('writes what waits once the oldest line has waited MAX_BATCH_WAIT_MS, though the turn goes on', () => {
    const writes: string[] = [];
    let now = 100;
    const writer = new LineWriter((data) => writes.push(asText(data)), { defer: () => undefined, clock: () => now });
    writer.send(line('a'));
    now += MAX_BATCH_WAIT_MS / 2;
    writer.send(line('b'));
    expect(writes).toEqual([]);
    now += MAX_BATCH_WAIT_MS / 2;
    writer.send(line('c'));
    expect(writes.map((w) => linesOf(w).map((l) => ('id' in l ? l.id : '')))).toEqual([['a', 'b', 'c']]);
    writer.send(line('d')); // a new batch starts its own wait
    expect(writes).toHaveLength(1);
  });

  it('merges waiting text pieces into one line with the first piece’s time, and flush counts the merged line once', async () => {
    const writes: string[] = [];
    const deferred: Array<() => void> = [];
    const writer = new LineWriter(
      (data, cb) => {
        writes.push(asText(data));
        cb();
      },
      { defer: (run) => deferred.push(run), merge: coalesce, clock: () => 0 },
    );
    writer.send(delta('Hel', '2026-01-01T00:00:00.001Z'));
    writer.send(delta('lo', '2026-01-01T00:00:00.002Z'));
    writer.send(line('reply'));
    writer.send(delta(' world', '2026-01-01T00:00:00.003Z'));
    deferred.shift()!();
    const sent = linesOf(writes[0]!);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({ type: 'event', event: { kind: 'message.delta', text: 'Hello', time: '2026-01-01T00:00:00.001Z' } });
    expect(sent[1]).toMatchObject({ id: 'reply' }); // nothing merges across another line: order is kept
    expect(sent[2]).toMatchObject({ type: 'event', event: { text: ' world' } });
    await expect(writer.flush()).resolves.toBeUndefined();
  });

  it('in a burst holds the next batch up to BURST_HOLD_MS for more pieces; a paced stream is never held', () => {
    const { writes, deferred, held, clock, writer } = heldWriter();
    const texts = () => writes.map((w) => linesOf(w).map((l) => (l.type === 'event' && 'text' in l.event ? l.event.text : '')));

    writer.send(delta('a', 't1')); // a paced piece: out at the end of the turn
    deferred.shift()!();
    for (let i = 0; i < BURST_PIECES; i++) writer.send(delta('b', 't2')); // a burst's batch
    expect(held).toHaveLength(0);
    deferred.shift()!();
    expect(texts()).toEqual([['a'], ['b'.repeat(BURST_PIECES)]]);

    writer.send(delta('c', 't3')); // after a burst: held for the pieces that follow
    expect(deferred).toHaveLength(0);
    expect(held.map((h) => h.ms)).toEqual([BURST_HOLD_MS]);
    clock.now += MAX_BATCH_WAIT_MS; // past the ordinary cut, inside the hold
    writer.send(delta('d', 't4'));
    expect(writes).toHaveLength(2);
    held.shift()!.run();
    expect(texts()[2]).toEqual(['cd']);

    clock.now += BURST_WINDOW_MS + 1; // the burst's pieces are out of the window: the stream is paced again
    writer.send(delta('e', 't5'));
    expect(held).toHaveLength(0);
    expect(deferred).toHaveLength(1);
  });

  it('tells a burst by its rate: a stream read one piece per turn enters the hold', () => {
    const { writes, deferred, held, clock, writer } = heldWriter();
    // A paced stream, a piece a millisecond for a long while: every piece goes out at the end of its turn.
    for (let i = 0; i < 4 * BURST_WINDOW_MS; i++) {
      writer.send(delta('p', 't1'));
      deferred.shift()!();
      clock.now += 1;
    }
    expect(held).toHaveLength(0);
    expect(writes).toHaveLength(4 * BURST_WINDOW_MS);
    // Four pieces a millisecond, each read in its own turn: within the window they are a burst.
    let turns = 0;
    while (turns < 2 * BURST_PIECES) {
      writer.send(delta('f', 't2'));
      turns++;
      if (held.length > 0) break;
      deferred.shift()!();
      clock.now += 0.25;
    }
    expect(held).toHaveLength(1);
    expect(turns).toBeLessThanOrEqual(BURST_PIECES + 1);
    const before = writes.length;
    for (let i = 0; i < 4; i++) writer.send(delta('f', 't2'));
    held.shift()!.run();
    expect(writes.length - before).toBe(1); // the held pieces go out merged, in one line
  });

  it('in a burst a batch cut by time is not followed by the earlier batch’s hold ending the next one early', () => {
    const { writes, deferred, held, clock, writer } = heldWriter({ merge: false });
    for (let i = 0; i < BURST_PIECES; i++) writer.send(line(`b${i}`));
    deferred.shift()!();
    writer.send(line('x')); // held
    expect(held).toHaveLength(1);
    clock.now += BURST_HOLD_MS; // a busy turn goes past the hold: the next line cuts the batch at once
    writer.send(line('y'));
    expect(writes).toHaveLength(2);
    writer.send(line('z')); // a new batch, with its own hold
    expect(held).toHaveLength(2);
    held.shift()!.run(); // the first batch's timer: it must not write z's batch
    expect(writes).toHaveLength(2);
    held.shift()!.run();
    expect(linesOf(writes[2]!).map((l) => ('id' in l ? l.id : ''))).toEqual(['z']);
  });

  it('writes a serialised line’s bytes as they are, in order between the text around them, merges nothing across it, and flush waits for every part', async () => {
    const writes: Array<string | Uint8Array> = [];
    const done: Array<() => void> = [];
    const deferred: Array<() => void> = [];
    const writer = new LineWriter(
      (data, cb) => {
        writes.push(data);
        done.push(() => cb());
      },
      { defer: (run) => deferred.push(run), merge: coalesce, clock: () => 0 },
    );
    const page = Buffer.from('{"items":["é ✓ 😀"]}', 'utf8');
    writer.send(delta('a', 't1'));
    writer.send(new SerialisedLine([`{"v":${PROTOCOL_VERSION},"id":"p","type":"ok","payload":`, page, '}\n']));
    writer.send(delta('b', 't2'));
    deferred.shift()!();
    expect(writes).toHaveLength(3);
    expect(writes[1]).toBe(page); // the bytes themselves: not copied, not decoded
    const sent = linesOf(writes.map(asText).join(''));
    expect(sent.map((l) => (l.type === 'event' && l.event.kind === 'message.delta' ? l.event.text : l.type))).toEqual(['a', 'ok', 'b']);
    expect(sent[1]).toEqual({ v: PROTOCOL_VERSION, id: 'p', type: 'ok', payload: { items: ['é ✓ 😀'] } });
    let flushed = false;
    const flush = writer.flush().then(() => (flushed = true));
    done.shift()!();
    done.shift()!();
    await Promise.resolve();
    expect(flushed).toBe(false); // the last part is not written yet
    done.shift()!();
    await flush;
    expect(flushed).toBe(true);
  });
});
