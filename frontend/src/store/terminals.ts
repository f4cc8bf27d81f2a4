// The console's terminals (API: terminalOpen …, the `terminal` push): which panels are open, and each terminal's
// output routed to the one screen that shows it. Output carries offsets: a screen that attaches, or finds a gap
// (the host dropped the middle of a burst it could not deliver), redraws from the terminal's scrollback.
import type { TerminalInfo, TerminalOutput } from '../protocol/api.gen';
import type { Transport } from '../transport/transport';
import { rememberPanel, sessionsWithPanel } from './panelMemory';

/** Where one terminal's output is drawn (an xterm.js Terminal, in the panel). */
export interface TerminalScreen {
  reset(): void;
  write(data: Uint8Array): void;
  /** The program ended with code; now: it ended just now (not found ended in the scrollback). */
  exited(code: number, now: boolean): void;
}

interface Attached {
  screen: TerminalScreen;
  /** The offset the next byte drawn has; undefined while the scrollback is being read. */
  next: number | undefined;
}

export function decodeBase64(data: string): Uint8Array {
  const bin = atob(data);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export class Terminals {
  private readonly attached = new Map<string, Attached>();
  // Open where they were open when the page was left (panelMemory).
  private readonly panels = new Set<string>(sessionsWithPanel('terminal'));
  private readonly inputs = new Map<string, { pending: string }>();
  private readonly listeners = new Set<() => void>();
  private version = 0;

  constructor(private readonly transport: Transport) {}

  /** Starts routing the host's terminal pushes; returns the stop. */
  start(): () => void {
    return this.transport.subscribeTerminal((o) => this.receive(o));
  }

  // ── which sessions show their terminal panel (useSyncExternalStore) ──────────

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getVersion = (): number => this.version;

  panelOpen(session: string): boolean {
    return this.panels.has(session);
  }

  togglePanel(session: string, open = !this.panels.has(session)): void {
    if (open === this.panels.has(session)) return;
    if (open) this.panels.add(session);
    else this.panels.delete(session);
    rememberPanel(session, 'terminal', open);
    this.version++;
    for (const l of [...this.listeners]) l();
  }

  // ── calls ────────────────────────────────────────────────────────────────────

  list(session: string): Promise<TerminalInfo[]> {
    return this.transport.call('terminalList', { session }).then((r) => r.terminals);
  }

  open(session: string, cols: number, rows: number): Promise<TerminalInfo> {
    return this.transport.call('terminalOpen', { session, cols, rows });
  }

  openClaudeCode(session: string, cols: number, rows: number): Promise<TerminalInfo> {
    return this.transport.call('terminalClaudeCode', { session, cols, rows });
  }

  signIn(cols: number, rows: number): Promise<TerminalInfo> {
    return this.transport.call('terminalSignIn', { cols, rows });
  }

  /**
   * Sends typed input in order: the host answers calls concurrently, so one call per terminal is in flight at a
   * time and what is typed meanwhile goes together in the next.
   */
  input(terminal: string, data: string): void {
    const q = this.inputs.get(terminal);
    if (q !== undefined) {
      q.pending += data;
      return;
    }
    this.inputs.set(terminal, { pending: '' });
    this.sendInput(terminal, data);
  }

  private sendInput(terminal: string, data: string): void {
    const next = () => {
      const q = this.inputs.get(terminal);
      if (q === undefined || q.pending === '') {
        this.inputs.delete(terminal);
        return;
      }
      const more = q.pending;
      q.pending = '';
      this.sendInput(terminal, more);
    };
    this.transport.call('terminalInput', { terminal, data }).then(next, next);
  }

  resize(terminal: string, cols: number, rows: number): Promise<unknown> {
    return this.transport.call('terminalResize', { terminal, cols, rows });
  }

  close(terminal: string): Promise<unknown> {
    this.attached.delete(terminal);
    return this.transport.call('terminalClose', { terminal });
  }

  // ── drawing ──────────────────────────────────────────────────────────────────

  /** Shows terminal on screen: its scrollback first, then what follows. Returns the detach. */
  attach(terminal: string, screen: TerminalScreen): () => void {
    const a: Attached = { screen, next: undefined };
    this.attached.set(terminal, a);
    void this.redraw(terminal, a);
    return () => {
      if (this.attached.get(terminal) === a) this.attached.delete(terminal);
    };
  }

  /** Draws the attached screen of terminal again from the scrollback (it dropped output it could not draw). */
  redrawScreen(terminal: string): void {
    const a = this.attached.get(terminal);
    if (a !== undefined) void this.redraw(terminal, a);
  }

  private async redraw(terminal: string, a: Attached): Promise<void> {
    a.next = undefined;
    try {
      const back = await this.transport.call('terminalScrollback', { terminal });
      if (this.attached.get(terminal) !== a) return;
      a.screen.reset();
      a.screen.write(decodeBase64(back.data));
      a.next = back.end;
      if (back.exited) a.screen.exited(back.exitCode ?? -1, false);
    } catch {
      // The terminal closed meanwhile; its tab goes with the next list.
    }
  }

  private receive(o: TerminalOutput): void {
    const a = this.attached.get(o.terminal);
    if (a === undefined || a.next === undefined) return; // a redraw in flight reads it from the scrollback
    const full = decodeBase64(o.data);
    let data = full;
    if (o.offset > a.next) {
      void this.redraw(o.terminal, a); // a gap: the host dropped what we could not take
      return;
    }
    if (o.offset < a.next) data = data.subarray(Math.min(data.length, a.next - o.offset)); // already drawn
    if (data.length > 0) a.screen.write(data);
    a.next = Math.max(a.next, o.offset + full.length);
    if (o.exited) a.screen.exited(o.exitCode ?? -1, true);
  }
}
