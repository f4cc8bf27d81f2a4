// Renders one live session's Composer over the store and a scripted transport (the composer's own tests).
import { act, render, screen } from '@testing-library/react';
import { Composer } from '../src/components/composer/Composer';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';
import { liveSession, RECORDED_SESSION } from './fixtures';

export async function renderComposer(prepare: (t: FakeTransport) => void = () => undefined): Promise<{ input: HTMLElement }> {
  const transport = new FakeTransport();
  transport.snapshot = { ...transport.snapshot, sessions: [liveSession([])] };
  prepare(transport);
  const store = new ConsoleStore(transport, { schedule: (flush) => flush(), isForeground: () => true });
  store.start();
  await act(async () => {
    transport.setConnection('open');
    await settle();
  });
  const session = store.getState().sessions[RECORDED_SESSION];
  if (session === undefined) throw new Error('no session');
  render(
    <StoreProvider store={store}>
      <Composer session={session} />
    </StoreProvider>,
  );
  return { input: screen.getByTestId('composer-input') };
}
