import { act, fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/protocol/api';
import { READY_AGAIN_MS, Waker } from '../src/store/waker';
import { FakeTransport, settle } from './fakeTransport';
import { lasting, liveSession, RECORDED_SESSION, recordedEvents } from './fixtures';
import { renderComposer } from './renderComposer';

const S = RECORDED_SESSION;

function setup() {
  const transport = new FakeTransport();
  let now = 1_000_000;
  const waker = new Waker(transport, () => now);
  return {
    transport,
    waker,
    later: (ms: number) => {
      now += ms;
    },
    wakes: () => transport.callsOf('wakeSession').length,
  };
}

describe('the waker', () => {
  it('wakes an asleep session at the first keystroke, once while the call runs', async () => {
    const { transport, waker, wakes } = setup();
    let finish: () => void = () => undefined;
    transport.on('wakeSession', () => new Promise((resolve) => (finish = () => resolve({}))));
    waker.typing({ id: S, live: true, sleep: 'asleep' });
    waker.typing({ id: S, live: true, sleep: 'asleep' });
    expect(transport.callsOf('wakeSession')).toEqual([{ session: S }]);
    finish();
    await settle();
    // Asleep again (a short idle time): the next keystroke wakes it again at once.
    waker.typing({ id: S, live: true, sleep: 'asleep' });
    expect(wakes()).toBe(2);
  });

  it('tells an awake session at most once per READY_AGAIN_MS, and never a waking or closed one', async () => {
    const { transport, waker, later, wakes } = setup();
    transport.on('wakeSession', () => ({}));
    waker.typing({ id: S, live: true, sleep: 'waking' });
    waker.typing({ id: S, live: false });
    expect(wakes()).toBe(0);
    waker.typing({ id: S, live: true });
    await settle();
    later(READY_AGAIN_MS - 1);
    waker.typing({ id: S, live: true });
    expect(wakes()).toBe(1);
    later(1);
    waker.typing({ id: S, live: true });
    expect(wakes()).toBe(2);
  });

  it('does not ask again at every keystroke once the host refused', async () => {
    const { transport, waker, later, wakes } = setup();
    transport.on('wakeSession', () => {
      throw new ApiError('unavailable', 'Claude Code’s own TUI is open on this session', 'wakeSession');
    });
    waker.typing({ id: S, live: true, sleep: 'asleep' });
    await settle();
    waker.typing({ id: S, live: true, sleep: 'asleep' });
    expect(wakes()).toBe(1);
    later(READY_AGAIN_MS);
    waker.typing({ id: S, live: true, sleep: 'asleep' });
    expect(wakes()).toBe(2);
  });
});

describe('the composer', () => {
  it('wakes its asleep session as the person types, before anything is sent', async () => {
    let transport: FakeTransport | undefined;
    const { input } = await renderComposer((t) => {
      transport = t;
      t.snapshot = { ...t.snapshot, sessions: [liveSession([], { state: 'asleep' })] };
      t.on('wakeSession', () => ({}));
    });
    await act(async () => {
      fireEvent.change(input, { target: { value: 'w', selectionStart: 1, selectionEnd: 1 } });
      await settle();
    });
    expect(transport?.callsOf('wakeSession')).toEqual([{ session: S }]);
    expect(transport?.callsOf('sendPrompt')).toEqual([]);
  });

  it('wakes it when an earlier prompt is recalled with ↑ too', async () => {
    let transport: FakeTransport | undefined;
    const { input } = await renderComposer((t) => {
      transport = t;
      t.snapshot = { ...t.snapshot, sessions: [liveSession(lasting(recordedEvents().filter((e) => e.kind !== 'session.closed')), { state: 'asleep' })] };
      t.on('wakeSession', () => ({}));
    });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'ArrowUp' });
      await settle();
    });
    expect((input as HTMLTextAreaElement).value).not.toBe('');
    expect(transport?.callsOf('wakeSession')).toEqual([{ session: S }]);
  });
});
