// The benchmark page: the real console (App, store, styles) over an in-memory host holding one session of
// ?n= messages. It reports, on window.__bench, when the session was selected and when its tail was on screen.
import { createRoot } from 'react-dom/client';
import { App } from '../../src/App';
import { StoreProvider } from '../../src/store/hooks';
import { ConsoleStore } from '../../src/store/store';
import '../../src/styles/app.css';
import { BenchTransport } from './benchTransport';
import { BENCH_SESSION, syntheticEvents, TAIL_TEXT } from './synthetic';

interface BenchResult {
  messages: number;
  /** Transcript rows the session really has. */
  rows: number;
  selectedAt?: number;
  tailAt?: number;
}

declare global {
  interface Window {
    __bench: BenchResult;
  }
}

const n = Number(new URLSearchParams(location.search).get('n') ?? '10000');
const events = syntheticEvents(n);
window.__bench = { messages: n, rows: 0 };

const store = new ConsoleStore(new BenchTransport(events));
store.start();
const unsubscribe = store.subscribe(() => {
  if (!store.getState().loaded || store.getState().selected !== undefined) return;
  unsubscribe();
  window.__bench.selectedAt = performance.now();
  store.select(BENCH_SESSION);
  window.__bench.rows = store.getState().sessions[BENCH_SESSION]?.transcript.rows.length ?? 0;
});

/**
 * The tail is shown when the last message is in the DOM, inside the viewport and visible (a virtualized list can
 * hold rows it has placed but keeps hidden while it settles), checked before each frame. The moment counted is
 * when that frame has been painted: a task posted from the frame's callback runs after its style, layout and paint.
 */
function watchTail(): void {
  const rows = document.querySelectorAll('[data-testid="assistant-message"]');
  const last = rows[rows.length - 1];
  if (last?.textContent?.includes(TAIL_TEXT) === true && last.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
    const box = last.getBoundingClientRect();
    if (box.bottom <= window.innerHeight && box.top >= 0) {
      const painted = new MessageChannel();
      painted.port1.onmessage = () => {
        window.__bench.tailAt = performance.now();
      };
      painted.port2.postMessage(undefined);
      return;
    }
  }
  requestAnimationFrame(watchTail);
}
requestAnimationFrame(watchTail);

const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StoreProvider store={store}>
      <App />
    </StoreProvider>,
  );
}
