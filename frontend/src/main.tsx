// Starts the console: picks the transport for where it runs (Wails window or browser; in a browser that takes
// the access token out of the address first), starts the store, renders the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './components/shell/ErrorBoundary';
import { applyOsTheme } from './components/shell/useTheme';
import { StoreProvider } from './store/hooks';
import { BrowserNotifier } from './store/notifier';
import { ConsoleStore } from './store/store';
import './styles/app.css';
import './styles/usage.css';
import { pickTransport } from './transport/pick';

applyOsTheme();
const transport = pickTransport();
const store = new ConsoleStore(transport, { notifier: new BrowserNotifier() });
store.start();

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <ErrorBoundary>
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    </ErrorBoundary>
  </StrictMode>,
);
