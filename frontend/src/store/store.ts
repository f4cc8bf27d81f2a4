// The console's store: framework-agnostic. It owns the transport, folds pushed events into per-session state
// (batched, so a burst of deltas renders once), rebuilds everything from `snapshot` after every (re)connect,
// and offers the actions components call. React reads it through hooks.ts.
import { type LiveSession, type SessionInfo, type Settings, type Snapshot, type StartSessionParams, toApiError } from '../protocol/api';
import { type ConsoleEvent, isSessionEvent, type PermissionMode, type QuestionAnswer, readEvents, type SessionEvent, type Verdict } from '../protocol/events';
import type { PromptImage } from '../protocol/api.gen';
import { UNKNOWN_INDEX } from '../protocol/hostState';
import type { ConnectionState, Transport } from '../transport/transport';
import { foldEvents, type FoldContext, markQueued, newSession, REPLAY } from './fold';
import { ChangesActions, worktreeNotice } from './changes';
import { Lookups } from './lookups';
import { readStoredCounts } from './storedChanges';
import { applyHistoryPage, HISTORY_PAGE, historyLoading, needsHistory, withHistoryPending } from './history';
import { attentionFor, forkTitle, type Notice } from './attention';
import { projectName } from './sidebar';
import { type Notifier, silentNotifier } from './notifier';
import { lastSelected, rememberSelected } from './lastSelected';
import { Terminals } from './terminals';
import { PlanWaits, type Timer } from './planWaits';
import { Reveal } from './reveal';
import { Waker } from './waker';
import { pageLimit } from './history';
import type { ConsoleState, SessionState, Toast } from './types';

/** What an answer carries beyond its verdict. */
export interface AnswerDetail {
  /** With a denial: what to tell Claude. */
  message?: string;
  /** AskUserQuestion: the person's choices. */
  answers?: QuestionAnswer[];
  /** ExitPlanMode approved: the mode to continue in. */
  mode?: PermissionMode;
}

export interface StoreOptions {
  notifier?: Notifier;
  /** Runs a batched fold later; the default waits one frame's worth so a burst of deltas renders once. */
  schedule?: (flush: () => void) => void;
  /** Whether the person is looking at this window (background sessions get marks and notifications). */
  isForeground?: () => boolean;
  /** How many sessions the sidebar asks for. */
  sidebarLimit?: number;
  /** The clock prompts waiting for a plan limit's reset are sent by (planWaits.ts). */
  timer?: Timer;
}

const defaultSchedule = (flush: () => void): void => {
  setTimeout(flush, 16);
};

const defaultForeground = (): boolean => typeof document === 'undefined' || document.visibilityState === 'visible';

export function initialState(): ConsoleState {
  return {
    connection: 'connecting',
    loaded: false,
    provisioning: { state: 'unknown' },
    auth: { status: 'unknown', summary: '' },
    index: UNKNOWN_INDEX,
    changes: {},
    sessions: {},
    sidebar: { items: [], loading: false },
    marks: {},
    toasts: [],
    drafts: {},
  };
}

/** A push says the host already waited for the burst of changes to settle: list again almost at once. */
const SESSIONS_CHANGED_DELAY_MS = 50;

export class ConsoleStore {
  private state: ConsoleState = initialState();
  private readonly listeners = new Set<() => void>();
  private queue: ConsoleEvent[] = [];
  private flushPending = false;
  /** Events that arrive while a snapshot is being read, folded after it (seq skips what it held). */
  private held: ConsoleEvent[] | undefined;
  private readonly answeredHere = new Set<string>();
  /** Forks whose name is still to be stored: a fork's transcript exists only once its first turn ran. */
  private readonly forkTitles = new Map<string, string>();
  private readonly stops: Array<() => void> = [];
  private toastSeq = 0;
  private sidebarTimer: ReturnType<typeof setTimeout> | undefined;
  private sidebarRunning: Promise<void> | undefined;
  private sidebarAgain = false;
  /** Stored worktree sessions whose change counts were read already (storedChanges.ts). */
  private readonly countsAsked = new Set<string>();
  /** Whether the session shown before a reload was looked for already. */
  private restored = false;
  private readonly notifier: Notifier;
  /** The console's terminals (terminals.ts): panels and each terminal's screen. */
  readonly terminals: Terminals;
  private readonly schedule: (flush: () => void) => void;
  private readonly isForeground: () => boolean;
  /** A session's git work (the Changes panel's calls). */
  readonly changes: ChangesActions;
  readonly lookups: Lookups;
  /** Readies a session for the prompt being typed in it. */
  readonly waker: Waker;
  /** Prompts waiting for a plan limit to reset. */
  readonly planWaits: PlanWaits;
  /** The session position a search hit asked to show (reveal.ts). */
  readonly reveal = new Reveal();

  constructor(
    private readonly transport: Transport,
    private readonly opts: StoreOptions = {},
  ) {
    this.notifier = opts.notifier ?? silentNotifier;
    this.terminals = new Terminals(transport);
    this.schedule = opts.schedule ?? defaultSchedule;
    this.isForeground = opts.isForeground ?? defaultForeground;
    this.changes = new ChangesActions(transport);
    this.lookups = new Lookups(transport);
    this.waker = new Waker(transport);
    this.planWaits = new PlanWaits((id, prompt) => this.sendPrompt(id, prompt), opts.timer);
  }

  // ── subscription ────────────────────────────────────────────────────────────

  readonly getState = (): ConsoleState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: ConsoleState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }

  private update(fn: (s: ConsoleState) => ConsoleState): void {
    this.set(fn(this.state));
  }

  private updateSession(id: string, fn: (s: SessionState) => SessionState): void {
    this.update((state) => {
      const s = state.sessions[id];
      if (s === undefined) return state;
      const next = fn(s);
      return next === s ? state : { ...state, sessions: { ...state.sessions, [id]: next } };
    });
  }

  /** Starts listening; the first connection loads the snapshot. */
  start(): void {
    this.stops.push(this.transport.subscribe((ev) => this.receive(ev)));
    this.stops.push(this.transport.onConnectionChange((c) => this.connectionChanged(c)));
    this.stops.push(this.terminals.start());
    if (this.transport.connection === 'open') this.connectionChanged('open');
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
    if (this.sidebarTimer !== undefined) clearTimeout(this.sidebarTimer);
  }

  // ── events ──────────────────────────────────────────────────────────────────

  private receive(ev: ConsoleEvent): void {
    if (this.held !== undefined) {
      this.held.push(ev);
      return;
    }
    this.queue.push(ev);
    if (!this.flushPending) {
      this.flushPending = true;
      this.schedule(() => this.flush());
    }
  }

  /** Folds what is queued now (also called by tests to skip the batching delay). */
  flush(): void {
    this.flushPending = false;
    const events = this.queue;
    this.queue = [];
    if (events.length > 0) this.set(this.fold(this.state, events, { live: true, answeredHere: this.answeredHere }));
  }

  private fold(state: ConsoleState, events: readonly ConsoleEvent[], ctx: FoldContext): ConsoleState {
    const bySession = new Map<string, ConsoleEvent[]>();
    let next = state;
    let sidebarStale = false;
    for (const ev of events) {
      if (ev.session === '' || !(isSessionEvent(ev) || ev.kind.startsWith('unrecognized:') || ev.kind === 'protocol.error')) {
        next = this.hostEvent(next, ev);
        continue;
      }
      const list = bySession.get(ev.session) ?? [];
      list.push(ev);
      bySession.set(ev.session, list);
      if (ev.kind === 'session.started' || ev.kind === 'session.closed' || ev.kind === 'turn.completed') sidebarStale = true;
    }
    if (bySession.size === 0) return next;
    const sessions = { ...next.sessions };
    let marks = next.marks;
    for (const [id, list] of bySession) {
      const before = sessions[id] ?? sessionFromEvents(id, list);
      const after = foldEvents(before, list, ctx);
      sessions[id] = after;
      if (ctx.live) marks = this.attention(marks, after, list, next.selected);
      if (ctx.live && list.some((ev) => ev.kind === 'turn.completed')) this.storeForkTitle(id);
    }
    if (sidebarStale && ctx.live) this.refreshSidebarSoon();
    return { ...next, sessions, marks };
  }

  private storeForkTitle(id: string): void {
    const title = this.forkTitles.get(id);
    if (title === undefined) return;
    this.forkTitles.delete(id);
    queueMicrotask(() => void this.renameSession(id, title).catch(() => undefined));
  }

  /** Marks and notifies for background sessions: a permission waiting, a turn finished. */
  private attention(marks: ConsoleState['marks'], s: SessionState, events: readonly ConsoleEvent[], selected: string | undefined): ConsoleState['marks'] {
    const found = attentionFor(marks, s, events, s.id !== selected || !this.isForeground());
    for (const n of found.notices) this.notify(n);
    return found.marks;
  }

  /** Native notifications where the host has them, else the browser's. */
  private notify(n: Notice): void {
    if (this.state.settings?.notifications === false) return;
    // A click on the notification shows its session.
    const show = () => this.select(n.session);
    if (this.state.capabilities?.notifications === true) {
      this.transport.call('notify', { title: n.title, body: n.body }).catch(() => this.notifier.notify(n.title, n.body, n.tag, show));
    } else {
      this.notifier.notify(n.title, n.body, n.tag, show);
    }
  }

  private hostEvent(state: ConsoleState, ev: ConsoleEvent): ConsoleState {
    switch (ev.kind) {
      case 'provision.state':
        return { ...state, provisioning: ev.provisioning };
      case 'index.state':
        return { ...state, index: ev.index };
      case 'auth.changed':
        // Another account may offer other models.
        this.lookups.forgetModels();
        return { ...state, auth: ev.auth };
      case 'protocol.error':
        return withToast(state, ++this.toastSeq, 'error', `Baton’s runtime reported a problem: ${ev.message}`);
      case 'changes.updated':
        return { ...state, changes: { ...state.changes, [ev.changes.session]: ev.changes } };
      case 'sessions.changed':
        // A session created or written outside this Baton (the CLI, `baton exec`): list them again.
        this.refreshSidebarSoon(SESSIONS_CHANGED_DELAY_MS);
        return state;
      default:
        return state;
    }
  }

  // ── connection and snapshot ─────────────────────────────────────────────────

  private connectionChanged(connection: ConnectionState): void {
    this.update((s) => ({ ...s, connection }));
    if (connection === 'open') void this.loadSnapshot();
  }

  private async loadSnapshot(): Promise<void> {
    this.held = [];
    // Queued events predate the snapshot: it holds them already (deltas excepted, which do not last).
    this.queue = [];
    try {
      if (this.state.capabilities === undefined) {
        const capabilities = await this.transport.capabilities();
        this.update((s) => ({ ...s, capabilities }));
      }
      const snapshot = await this.transport.call('snapshot', {});
      void this.loadSettings();
      const sessions = (snapshot.sessions ?? []).map((live) => ({ ...live, events: readEvents(live.events) }));
      this.set(this.rebuild(this.state, { ...snapshot, sessions }));
    } catch (err) {
      this.toast('error', `Could not load Baton’s state: ${toApiError(err).message}`);
    } finally {
      const held = this.held ?? [];
      this.held = undefined;
      if (held.length > 0) this.set(this.fold(this.state, held, { live: true, answeredHere: this.answeredHere }));
    }
    this.restoreSelection();
    void this.refreshSidebar();
    const selected = this.state.selected;
    if (selected !== undefined) void this.loadHistory(selected, true);
  }

  /** Rebuilds every session from a snapshot, keeping what the snapshot does not carry (history, selection). */
  rebuild(state: ConsoleState, snapshot: Snapshot): ConsoleState {
    const sessions: Record<string, SessionState> = {};
    for (const live of snapshot.sessions) sessions[live.session] = sessionFromSnapshot(live, state.sessions[live.session]);
    for (const [id, old] of Object.entries(state.sessions)) {
      if (sessions[id] !== undefined) continue;
      // Gone from the host (closed while we were away): keep what was seen, no longer live.
      sessions[id] = old.live ? { ...old, live: false, pending: [], closed: old.closed ?? { reason: 'closed' } } : old;
    }
    return {
      ...state,
      loaded: true,
      sessions,
      provisioning: snapshot.provisioning ?? { state: 'unknown' },
      auth: snapshot.auth ?? { status: 'unknown' },
      index: snapshot.index ?? UNKNOWN_INDEX,
      ...(snapshot.sessionIdleSeconds !== undefined ? { sessionIdleSeconds: snapshot.sessionIdleSeconds } : {}),
      changes: { ...state.changes, ...Object.fromEntries((snapshot.changes ?? []).map((c) => [c.session, c])) },
    };
  }

  // ── sidebar ─────────────────────────────────────────────────────────────────

  /**
   * Lists the sessions again. One listing runs at a time: asked for meanwhile (a push, a finished turn), it runs
   * once more after the current one, whose answer is shown first — a stream of pushes never starves the list.
   */
  refreshSidebar(): Promise<void> {
    if (this.sidebarRunning !== undefined) {
      this.sidebarAgain = true;
      return this.sidebarRunning;
    }
    const run = async () => {
      do {
        this.sidebarAgain = false;
        await this.listSessionsOnce();
      } while (this.sidebarAgain);
    };
    this.sidebarRunning = run().finally(() => {
      this.sidebarRunning = undefined;
    });
    return this.sidebarRunning;
  }

  private async listSessionsOnce(): Promise<void> {
    this.update((s) => ({ ...s, sidebar: { ...s.sidebar, loading: true } }));
    try {
      const { sessions } = await this.transport.call('listSessions', { limit: this.opts.sidebarLimit ?? 200 });
      this.update((s) => ({ ...s, sidebar: { items: sessions, loading: false } }));
      this.restoreSelection();
      void this.readStoredCounts(sessions);
    } catch (err) {
      const error = toApiError(err).message;
      this.update((s) => ({ ...s, sidebar: { ...s.sidebar, loading: false, error } }));
    }
  }

  private async readStoredCounts(sessions: readonly SessionInfo[]): Promise<void> {
    const read = await readStoredCounts(sessions, this.state.changes, this.countsAsked, (id) => this.changes.list(id));
    if (read.length === 0) return;
    // A push that came meanwhile is newer than what was read.
    this.update((s) => ({ ...s, changes: { ...Object.fromEntries(read.map((c) => [c.session, c])), ...s.changes } }));
  }

  private refreshSidebarSoon(delayMs = 400): void {
    if (this.sidebarTimer !== undefined) return;
    this.sidebarTimer = setTimeout(() => {
      this.sidebarTimer = undefined;
      void this.refreshSidebar();
    }, delayMs);
  }

  /** After a reload: shows the session shown last, once it is known (open, or in the list). */
  private restoreSelection(): void {
    if (this.restored || this.state.selected !== undefined) {
      this.restored = true;
      return;
    }
    const id = lastSelected();
    if (id === undefined) {
      this.restored = true;
      return;
    }
    const info = this.state.sidebar.items.find((x) => x.session === id);
    if (this.state.sessions[id] === undefined && info === undefined) return;
    this.restored = true;
    this.select(id, info);
  }

  /** Gives a stored session its own title; rejects with the host's message (the sidebar shows it). */
  async renameSession(id: string, title: string): Promise<void> {
    const cwd = this.state.sessions[id]?.cwd ?? this.state.sidebar.items.find((x) => x.session === id)?.cwd;
    const { title: stored } = await this.transport.call('renameSession', { session: id, title, ...(cwd !== undefined && cwd !== '' ? { cwd } : {}) });
    this.update((s) => ({
      ...s,
      sidebar: { ...s.sidebar, items: s.sidebar.items.map((x) => (x.session === id ? { ...x, title: stored } : x)) },
    }));
    this.updateSession(id, (x) => ({ ...x, title: stored }));
  }

  /** Pins or archives a session (Baton's own marks). */
  async setSessionFlags(id: string, flags: { pinned?: boolean; archived?: boolean }): Promise<void> {
    try {
      const { pinned, archived } = await this.transport.call('setSessionFlags', { session: id, ...flags });
      this.update((s) => ({
        ...s,
        sidebar: { ...s.sidebar, items: s.sidebar.items.map((x) => (x.session === id ? { ...x, pinned, archived } : x)) },
      }));
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  // ── selection and history ───────────────────────────────────────────────────

  /** Shows a session: a live one, or a past one from the sidebar (its history is loaded, newest page first). */
  select(id: string | undefined, info?: SessionInfo): void {
    this.update((state) => {
      let sessions = state.sessions;
      if (id !== undefined && sessions[id] === undefined && info !== undefined) {
        const past = withHistoryPending(newSession({ id, cwd: info.cwd ?? '', ...(info.title !== '' ? { title: info.title } : {}) }));
        sessions = { ...sessions, [id]: past };
      }
      const marks = { ...state.marks };
      if (id !== undefined) delete marks[id];
      const next: ConsoleState = { ...state, sessions, marks };
      if (id === undefined) delete next.selected;
      else next.selected = id;
      return next;
    });
    rememberSelected(id);
    if (id !== undefined) void this.loadHistory(id, true);
  }

  /** Loads the newest page (first) or the next older one: back to position `to` at once when given (a hit's). */
  async loadHistory(id: string, first = false, to?: number): Promise<void> {
    for (let guard = 0; guard < 50; guard++) {
      const s = this.state.sessions[id];
      if (s === undefined || s.history.loading || s.history.exhausted) return;
      const loadedAny = s.history.total > 0 || s.history.events.length > 0;
      if (first && loadedAny) return;
      const before = loadedAny ? s.history.start : undefined;
      this.updateSession(id, (x) => historyLoading(x, true));
      try {
        const page = await this.transport.call('history', {
          session: id,
          limit: to === undefined ? HISTORY_PAGE : pageLimit(before, to),
          ...(s.cwd !== '' ? { cwd: s.cwd } : {}),
          ...(before !== undefined ? { before } : {}),
        });
        const events = readEvents(page.events).filter(isSessionEvent);
        this.updateSession(id, (x) => applyHistoryPage(x, { ...page, events }, before === undefined));
      } catch (err) {
        this.updateSession(id, (x) => historyLoading(x, false, toApiError(err).message));
        return;
      }
      const after = this.state.sessions[id];
      // A page entirely inside the live part shows nothing: go one further back.
      if (after === undefined || after.history.exhausted || after.history.events.length > 0) return;
      first = false;
    }
  }

  // ── actions ─────────────────────────────────────────────────────────────────

  async startSession(params: StartSessionParams): Promise<string | undefined> {
    this.askNotifications();
    try {
      const { session, cwd, worktree } = await this.transport.call('startSession', params);
      this.update((state) => {
        const existing = state.sessions[session];
        const base =
          existing ??
          newSession({
            id: session,
            cwd: cwd ?? params.cwd,
            ...(params.model !== undefined ? { requestedModel: params.model } : {}),
            ...(params.permissionMode !== undefined ? { permissionMode: params.permissionMode } : {}),
          });
        let s: SessionState = { ...base, live: true };
        // The session's own session.started may have come first (the event and this reply travel separately): a
        // resumed or forked session it made still has its earlier conversation to read.
        const fresh = existing === undefined || (existing.live && existing.history.total === 0 && existing.history.events.length === 0);
        if (fresh && (params.resume !== undefined || params.forkFrom !== undefined)) s = withHistoryPending(s);
        return { ...state, sessions: { ...state.sessions, [session]: s }, selected: session };
      });
      rememberSelected(session);
      if (worktree !== undefined) this.toast('info', worktreeNotice(worktree));
      this.refreshSidebarSoon();
      void this.loadHistory(session, true);
      return session;
    } catch (err) {
      throw toApiError(err, 'startSession');
    }
  }

  /** Sends a prompt, resuming a past session first. Returns false when it failed (the text stays). */
  async sendPrompt(id: string, prompt: string, images?: PromptImage[]): Promise<boolean> {
    this.askNotifications();
    this.waker.sent(id);
    const s = this.state.sessions[id];
    if (s === undefined) return false;
    try {
      if (!s.live) await this.startSession({ cwd: s.cwd, resume: id });
      const { turn, queued } = await this.transport.call('sendPrompt', {
        session: id,
        prompt,
        ...(images !== undefined && images.length > 0 ? { images } : {}),
      });
      if (queued) this.updateSession(id, (x) => markQueued(x, turn, prompt));
      return true;
    } catch (err) {
      this.toast('error', toApiError(err).message);
      return false;
    }
  }

  /** Steers the running turn with prompt (an ordinary prompt when none runs); false when it could not be sent. */
  async guideTurn(id: string, prompt: string, images?: PromptImage[]): Promise<boolean> {
    try {
      await this.transport.call('guideTurn', { session: id, prompt, ...(images !== undefined && images.length > 0 ? { images } : {}) });
      return true;
    } catch (err) {
      this.toast('error', toApiError(err).message);
      return false;
    }
  }

  /**
   * Stop (the button, Esc): the prompts waiting in line are taken back into the composer, never sent, and then
   * the running turn is canceled. The queued ones go first so that the cancel does not start the next of them.
   */
  async stopTurn(id: string): Promise<void> {
    const s = this.state.sessions[id];
    if (s === undefined) return;
    const queued = s.turnOrder.map((t) => s.turns.get(t)).filter((t) => t !== undefined && t.status === 'queued' && t.id !== s.runningTurn);
    const taken: string[] = [];
    for (const turn of queued) {
      if (turn === undefined) continue;
      if (await this.withdraw(id, turn.id)) taken.push(turn.prompt);
    }
    if (taken.length > 0) this.addDraft(id, taken.join('\n\n'));
    if (this.state.sessions[id]?.runningTurn !== undefined) await this.cancelTurn(id);
  }

  /** Takes a queued prompt back into the composer to be edited (it is not sent). */
  async editQueued(id: string, turn: string): Promise<void> {
    const prompt = this.state.sessions[id]?.turns.get(turn)?.prompt;
    if (prompt !== undefined && (await this.withdraw(id, turn))) this.addDraft(id, prompt);
  }

  /** Changes a queued prompt and keeps its place in line: it and the prompts behind it are taken back and sent
   * again in the same order, the changed text in its place (the host queues only at the end). False when it had
   * started meanwhile (then nothing changed). */
  async replaceQueued(id: string, turn: string, text: string): Promise<boolean> {
    const s = this.state.sessions[id];
    if (s === undefined) return false;
    const queued = s.turnOrder.filter((t) => s.turns.get(t)?.status === 'queued');
    const from = queued.indexOf(turn);
    if (from === -1) return false;
    const behind = queued.slice(from);
    const prompts = behind.map((t) => (t === turn ? text : (s.turns.get(t)?.prompt ?? '')));
    if (!(await this.withdraw(id, turn))) return false;
    for (const t of behind.slice(1)) await this.withdraw(id, t);
    for (const p of prompts) if (p.trim() !== '') await this.sendPrompt(id, p);
    return true;
  }

  /** Removes a queued turn before it starts; true when it was removed (not already running or ended). */
  private async withdraw(id: string, turn: string): Promise<boolean> {
    try {
      const reply = await this.transport.call('cancelTurn', { session: id, turn });
      if (reply.disposition !== 'pre_accept') return false;
      this.updateSession(id, (x) => foldEvents(x, [{ kind: 'turn.canceled', session: id, turn, time: new Date().toISOString(), disposition: 'pre_accept' }]));
      return true;
    } catch (err) {
      this.toast('error', toApiError(err).message);
      return false;
    }
  }

  /** Text for a session's composer, added to what is waiting there already. */
  addDraft(id: string, text: string): void {
    this.update((s) => {
      const before = s.drafts[id];
      return { ...s, drafts: { ...s.drafts, [id]: before !== undefined && before !== '' ? `${before}\n\n${text}` : text } };
    });
  }

  /** The composer takes what waits for it (once). */
  takeDraft(id: string): string | undefined {
    const text = this.state.drafts[id];
    if (text === undefined) return undefined;
    this.update((s) => {
      const { [id]: _taken, ...rest } = s.drafts;
      return { ...s, drafts: rest };
    });
    return text;
  }

  /** Stops one background task; the session's task list follows Claude Code's report. */
  async stopTask(id: string, taskId: string): Promise<void> {
    try {
      await this.transport.call('stopTask', { session: id, taskId });
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  /** Moves running foreground work (the Bash command or agent toolUseId started, else all) to the background. */
  async sendToBackground(id: string, toolUseId?: string): Promise<void> {
    try {
      const { backgrounded } = await this.transport.call('sendToBackground', { session: id, ...(toolUseId !== undefined ? { toolUseId } : {}) });
      if (!backgrounded) this.toast('info', 'Nothing was running in the foreground to move to the background.');
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  /** Cancels a turn (the running one when none is named); the session shows "Stopping…" until it ends. */
  async cancelTurn(id: string, turn?: string): Promise<void> {
    const target = turn ?? this.state.sessions[id]?.runningTurn;
    if (target !== undefined && target === this.state.sessions[id]?.runningTurn) {
      this.updateSession(id, (x) => ({ ...x, stopping: target }));
    }
    try {
      const reply = await this.transport.call('cancelTurn', { session: id, ...(target !== undefined ? { turn: target } : {}) });
      if (reply.disposition === 'pre_accept' && reply.turn !== undefined) {
        const ended = reply.turn;
        this.updateSession(id, (x) =>
          foldEvents(x, [{ kind: 'turn.canceled', session: id, turn: ended, time: new Date().toISOString(), disposition: 'pre_accept' }]),
        );
      }
      // absent / mismatch: the turn already ended (its terminal event is on its way or arrived); nothing to stop.
      if (reply.disposition === 'absent' || reply.disposition === 'mismatch') this.clearStopping(id, target);
    } catch (err) {
      this.clearStopping(id, target);
      this.toast('error', toApiError(err).message);
    }
  }

  private clearStopping(id: string, turn: string | undefined): void {
    if (turn === undefined || this.state.sessions[id]?.stopping !== turn) return;
    this.updateSession(id, (x) => {
      const { stopping: _done, ...rest } = x;
      return rest;
    });
  }

  async answerPermission(id: string, requestId: string, verdict: Verdict, detail: AnswerDetail = {}): Promise<void> {
    this.answeredHere.add(requestId);
    const { message, answers, mode } = detail;
    try {
      const { settled } = await this.transport.call('answerPermission', {
        session: id,
        requestId,
        verdict,
        ...(message !== undefined && message !== '' ? { message } : {}),
        ...(answers !== undefined ? { answers } : {}),
        ...(mode !== undefined ? { mode } : {}),
      });
      if (!settled) this.toast('info', 'That request was already answered (in another window, or by an interrupt).');
    } catch (err) {
      this.answeredHere.delete(requestId);
      this.toast('error', toApiError(err).message);
    }
  }

  async setModel(id: string, model: string): Promise<void> {
    try {
      await this.transport.call('setModel', { session: id, model });
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  /** Sets how long an open session may sit idle before it sleeps (0: never); rejects with the host's message. */
  async setSessionIdle(seconds: number): Promise<void> {
    const { seconds: set } = await this.transport.call('setSessionIdle', { seconds });
    this.update((s) => ({ ...s, sessionIdleSeconds: set, ...(s.settings !== undefined ? { settings: { ...s.settings, sessionIdleSeconds: set } } : {}) }));
  }

  /** Reads the saved settings (on connecting); a host without them leaves the console on its defaults. */
  async loadSettings(): Promise<void> {
    const settings = await this.transport.call('getSettings', {}).catch(() => undefined);
    if (settings !== undefined) this.update((s) => ({ ...s, settings, sessionIdleSeconds: settings.sessionIdleSeconds }));
  }

  /** Saves the settings in Baton's data dir; rejects with the host's message. */
  async saveSettings(next: Settings): Promise<void> {
    const settings = await this.transport.call('saveSettings', next);
    this.update((s) => ({ ...s, settings, sessionIdleSeconds: settings.sessionIdleSeconds }));
  }

  /** Rejects with the host's message (the bypass dialog shows the CLI's refusal). */
  async setPermissionMode(id: string, mode: PermissionMode): Promise<PermissionMode> {
    const { mode: actual } = await this.transport.call('setPermissionMode', { session: id, mode });
    if (actual !== mode) this.toast('info', `Claude Code kept the permission mode “${actual}” instead of “${mode}”.`);
    return actual;
  }

  async closeSession(id: string): Promise<void> {
    try {
      await this.transport.call('closeSession', { session: id });
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  async fork(id: string, at?: string): Promise<void> {
    const s = this.state.sessions[id];
    if (s === undefined) return;
    const listed = this.state.sidebar.items.find((x) => x.session === id)?.title;
    const title = (listed !== undefined && listed !== '' ? listed : s.title) ?? projectName(s.cwd);
    try {
      const fork = await this.startSession({ cwd: s.cwd, forkFrom: id, ...(at !== undefined ? { at } : {}) });
      // A fork is named for what it continues (issue 28), not for the parent's first prompt it repeats: shown
      // and kept in Baton's record at once, written to its transcript too once that exists (after its first turn).
      if (fork !== undefined) {
        this.updateSession(fork, (x) => ({ ...x, title: forkTitle(title) }));
        this.forkTitles.set(fork, forkTitle(title));
        void this.renameSession(fork, forkTitle(title)).catch(() => undefined);
      }
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  /** Rewinds (or, dryRun, counts) the files a prompt's turn and those after it changed; a past session is resumed
   * first (Claude Code rewinds only what a running session knows). */
  async rewindFiles(id: string, message: string, dryRun: boolean) {
    await this.resumeIfPast(id);
    return this.transport.call('rewindFiles', { session: id, message, dryRun });
  }

  private async resumeIfPast(id: string): Promise<void> {
    const s = this.state.sessions[id];
    if (s !== undefined && !s.live) await this.startSession({ cwd: s.cwd, resume: id });
  }

  /** Rewinds to before a prompt: the conversation continues from what preceded it, and its text goes back into
   * the composer to be edited and sent again. Resolves with the session it continues in (a new one when the
   * host had to copy it: before the first prompt, or before a /compact), undefined when it failed (toasted). */
  async rewindConversation(id: string, message: string, prompt?: string): Promise<string | undefined> {
    // The host rewinds a past session's conversation itself (it resumes it from before the message).
    const s = this.state.sessions[id];
    try {
      const { session } = await this.transport.call('rewindConversation', { session: id, message });
      if (prompt !== undefined && prompt !== '') this.addDraft(session, prompt);
      // The transcript now continues from that message: read it again rather than patch what was shown.
      this.update((state) => {
        const fresh = withHistoryPending({
          ...newSession({ id: session, cwd: s?.cwd ?? '', requestedModel: s?.requestedModel ?? 'default', permissionMode: s?.permissionMode ?? 'default' }),
          live: true,
          resumed: true,
        });
        return { ...state, sessions: { ...state.sessions, [session]: fresh }, selected: session };
      });
      void this.loadHistory(session, true);
      return session;
    } catch (err) {
      this.toast('error', toApiError(err).message);
      return undefined;
    }
  }

  /**
   * Shows the session again from its transcript (the index), after another writer added to it: Claude Code's own
   * TUI, opened from the terminal panel, has exited.
   */
  reread(id: string): void {
    const s = this.state.sessions[id];
    if (s === undefined) return;
    this.update((state) => {
      const fresh = withHistoryPending({
        ...newSession({ id, cwd: s.cwd, requestedModel: s.requestedModel, permissionMode: s.permissionMode }),
        live: s.live,
        resumed: true,
      });
      return { ...state, sessions: { ...state.sessions, [id]: fresh } };
    });
    void this.loadHistory(id, true);
  }

  async pickFolder(): Promise<string | null> {
    try {
      return (await this.transport.call('pickFolder', {})).path;
    } catch (err) {
      this.toast('error', toApiError(err).message);
      return null;
    }
  }

  async retryProvision(): Promise<void> {
    try {
      await this.transport.call('retryProvision', {});
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  async signIn(): Promise<void> {
    try {
      await this.transport.call('signIn', {});
      this.toast('info', 'A terminal with Claude Code’s sign-in was opened; Baton notices when it completes.');
    } catch (err) {
      this.toast('error', toApiError(err).message);
    }
  }

  /** Asks for notification permission now (Settings turned notifications on: a click). */
  askNotificationsNow(): void {
    this.askNotifications();
  }

  /** Browsers ask for notification permission only from a person's action: these are the actions. */
  private askNotifications(): void {
    if (this.state.capabilities?.notifications !== true) this.notifier.requestPermission();
  }

  toast(kind: Toast['kind'], message: string): void {
    this.update((s) => withToast(s, ++this.toastSeq, kind, message));
  }

  dismissToast(id: number): void {
    this.update((s) => ({ ...s, toasts: s.toasts.filter((t) => t.id !== id) }));
  }
}

function withToast(state: ConsoleState, id: number, kind: Toast['kind'], message: string): ConsoleState {
  return { ...state, toasts: [...state.toasts.slice(-4), { id, kind, message }] };
}

/** A session first seen through its events (started in another window, or while this one reconnected). */
function sessionFromEvents(id: string, events: readonly ConsoleEvent[]): SessionState {
  const started = events.find((ev): ev is Extract<SessionEvent, { kind: 'session.started' }> => ev.kind === 'session.started');
  return newSession({ id, cwd: started?.cwd ?? '' });
}

export function sessionFromSnapshot(live: LiveSession, previous: SessionState | undefined): SessionState {
  let s = newSession({
    id: live.session,
    cwd: live.cwd,
    requestedModel: live.requestedModel,
    effectiveModel: live.effectiveModel,
    permissionMode: live.permissionMode,
  });
  s = foldEvents(s, live.events, REPLAY);
  // The snapshot's own fields are the latest word (set_model / set_permission_mode after the events).
  s = { ...s, live: true, cwd: live.cwd, requestedModel: live.requestedModel || s.requestedModel, permissionMode: live.permissionMode };
  // The host's effective model is the CLI's last report ("" after a switch, until the next one).
  if (live.effectiveModel !== '') s.effectiveModel = live.effectiveModel;
  else delete s.effectiveModel;
  if (live.state === 'asleep') s.sleep = 'asleep';
  else if (live.state === 'awake') delete s.sleep;
  if (s.closed !== undefined) s.live = false;
  if (previous !== undefined && previous.history.events.length > 0) {
    s = { ...s, history: previous.history };
    if (previous.title !== undefined && s.title === undefined) s.title = previous.title;
    return s;
  }
  return needsHistory(s) ? withHistoryPending(s) : s;
}
