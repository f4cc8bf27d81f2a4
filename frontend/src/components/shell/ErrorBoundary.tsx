// A rendering failure shows what went wrong and a way back, instead of a blank window.
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error?: Error;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('baton: the console failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    return (
      <main className="provisioning" role="alert">
        <h1>The console ran into a problem</h1>
        <pre className="raw">{this.state.error.message}</pre>
        <div className="dialog-buttons">
          <button type="button" onClick={() => this.setState({})}>
            Try again
          </button>
          <button type="button" className="primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      </main>
    );
  }
}
