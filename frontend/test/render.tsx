// Renders the real App over the store and a scripted transport, with Virtuoso given a viewport (happy-dom
// lays nothing out, so without it the virtualized transcript would mount no rows).
import { act, render } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { App } from '../src/App';
import type { ConsoleEvent } from '../src/protocol/events';
import { StoreProvider } from '../src/store/hooks';
import { ConsoleStore, type StoreOptions } from '../src/store/store';
import { FakeTransport, settle } from './fakeTransport';

export async function renderConsole(prepare: (t: FakeTransport) => void = () => undefined, opts: StoreOptions = {}) {
  const transport = new FakeTransport();
  prepare(transport);
  const store = new ConsoleStore(transport, { schedule: () => undefined, isForeground: () => true, ...opts });
  store.start();
  const view = render(
    <StoreProvider store={store}>
      <VirtuosoMockContext.Provider value={{ viewportHeight: 100_000, itemHeight: 40 }}>
        <App />
      </VirtuosoMockContext.Provider>
    </StoreProvider>,
  );
  await act(async () => {
    transport.setConnection('open');
    await settle();
  });
  const push = async (...events: ConsoleEvent[]) => {
    await act(async () => {
      transport.push(...events);
      store.flush();
      await settle(1);
    });
  };
  const select = async (id: string) => {
    await act(async () => {
      store.select(id);
      await settle();
    });
  };
  return { transport, store, view, push, select };
}
