// Where the person writes. Enter sends, Shift+Enter adds a line, Esc stops the running turn (queued prompts come
// back here), ↑/↓ on the first/last line recall earlier prompts. Prompts sent while a turn runs are queued (shown,
// editable, removable); a past session is resumed by the first prompt. The unsent draft is kept per session.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useConsole, useStore } from '../../store/hooks';
import type { SessionState } from '../../store/types';
import { AttachmentStrip } from './AttachmentStrip';
import { CommandHints, matchingCommands } from './CommandHints';
import { loadDraft, saveDraft } from './draftStorage';
import { MentionPicker } from './MentionPicker';
import { mentionsOf } from './mentions';
import { clipboardImages, pastedFiles, pastedNothing } from './pastedFiles';
import { ModelPicker } from './ModelPicker';
import { ModePicker } from './ModePicker';
import { PermissionDock } from './PermissionDock';
import { QueuedTurns } from './QueuedTurns';
import { PlanMeter } from './PlanMeter';
import { UsageMeter } from './UsageMeter';
import { useAttachments } from './useAttachments';
import { useMentions } from './useMentions';
import { usePromptRecall } from './usePromptRecall';
import '../../styles/composer.css';

export function Composer({ session }: { session: SessionState }) {
  const store = useStore();
  const [text, setText] = useState(() => loadDraft(session.id));
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const caret = useRef<number | undefined>(undefined);
  const running = session.runningTurn !== undefined;
  const stopping = running && session.stopping === session.runningTurn;
  const [menu, setMenu] = useState<{ selected: number; dismissed: boolean }>({ selected: 0, dismissed: false });
  const hints = menu.dismissed ? [] : matchingCommands(session.commands, text);
  const selected = Math.min(menu.selected, Math.max(0, hints.length - 1));
  const [caretAt, setCaretAt] = useState(text.length);
  // A recalled prompt, a picked mention or an attachment is composing too: it wakes the session as typing does.
  const show = (next: string, at?: number) => {
    caret.current = at ?? next.length;
    setCaretAt(at ?? next.length);
    setText(next);
    store.waker.typing(session);
  };
  const recall = usePromptRecall(session, show);
  const mentions = useMentions(session.cwd, text, caretAt, show);
  const attachments = useAttachments(session.cwd, session.id);
  const [dropping, setDropping] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const attach = async (files: readonly File[]) => {
    if (files.length === 0) return;
    const paths = await attachments.add(files);
    if (paths.length === 0) return;
    const at = ref.current?.selectionStart ?? text.length;
    const before = text.slice(0, at);
    const inserted = `${before === '' || before.endsWith(' ') || before.endsWith('\n') ? '' : ' '}${mentionsOf(paths)} `;
    show(before + inserted + text.slice(at), at + inserted.length);
    ref.current?.focus();
  };
  const complete = (name: string) => {
    show(`/${name} `);
    ref.current?.focus();
  };

  useEffect(() => saveDraft(session.id, text), [session.id, text]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caret moves once the text it was set for is in.
  useLayoutEffect(() => {
    const at = caret.current;
    if (at === undefined || ref.current === null) return;
    caret.current = undefined;
    ref.current.setSelectionRange(at, at);
  }, [text]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the composer takes the focus again when the session changes.
  useEffect(() => {
    ref.current?.focus();
  }, [session.id]);

  // Text handed back to the composer (a rewound prompt, queued prompts taken back by Stop) joins what is there.
  const draft = useConsole((s) => s.drafts[session.id]);
  useEffect(() => {
    if (draft === undefined) return;
    const back = store.takeDraft(session.id);
    if (back === undefined) return;
    setText((now) => (now.trim() === '' ? back : `${now}\n\n${back}`));
    ref.current?.focus();
  }, [draft, session.id, store]);

  const images = attachments.images.map((a) => a.image);
  const empty = text.trim() === '' && images.length === 0;
  const send = async (steer = false) => {
    const prompt = text.trim();
    if (empty || sending || (steer && prompt === '')) return;
    setSending(true);
    setText('');
    const ok = steer ? await store.guideTurn(session.id, prompt, images) : await store.sendPrompt(session.id, prompt, images);
    if (ok) attachments.clear();
    else setText(prompt);
    setSending(false);
    ref.current?.focus();
  };

  const placeholder = !session.live ? 'Write to resume this session…' : running ? 'Claude is working — what you send now waits in line' : 'Ask Claude…';

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; the Attach button and paste do the same from the keyboard.
    <div
      className={`composer-area${dropping ? ' dropping' : ''}`}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(e) => {
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        setDropping(false);
        void attach(Array.from(e.dataTransfer.files));
      }}
    >
      {running && session.activity?.startsWith('retrying') === true && (
        <div className="retry-banner" role="status" data-testid="retry-banner">
          <span>The API request failed; Claude Code is {session.activity}.</span>
          <button type="button" className="danger" disabled={stopping} onClick={() => void store.stopTurn(session.id)}>
            {stopping ? 'Stopping…' : 'Stop'}
          </button>
        </div>
      )}
      <PermissionDock session={session} />
      <QueuedTurns session={session} />
      <CommandHints matches={hints} selected={selected} onPick={complete} />
      <MentionPicker view={mentions.view} onPick={mentions.pick} />
      <AttachmentStrip attachments={attachments} />
      <div className="composer">
        <textarea
          ref={ref}
          data-testid="composer-input"
          aria-label="Prompt"
          rows={Math.min(10, Math.max(2, text.split('\n').length))}
          value={text}
          placeholder={placeholder}
          aria-controls={hints.length > 0 ? 'command-hints' : undefined}
          aria-activedescendant={hints.length > 0 ? `command-hint-${selected}` : undefined}
          onChange={(e) => {
            recall.reset();
            setMenu({ selected: 0, dismissed: false });
            setCaretAt(e.target.selectionStart);
            setText(e.target.value);
            store.waker.typing(session);
          }}
          onSelect={(e) => setCaretAt(e.currentTarget.selectionStart)}
          onPaste={(e) => {
            const files = pastedFiles(e.clipboardData);
            if (files.length === 0 && pastedNothing(e.clipboardData)) {
              void clipboardImages(navigator.clipboard).then(attach);
              return;
            }
            if (files.length === 0) return;
            // A copied screenshot carries only the image; text copied along with one is pasted as usual.
            if (e.clipboardData.getData('text/plain') === '') e.preventDefault();
            void attach(files);
          }}
          onKeyDown={(e) => {
            const pick = hints[selected];
            if (e.nativeEvent.isComposing) return;
            if (!e.shiftKey && mentions.onKey(e.key)) {
              e.preventDefault();
            } else if (pick !== undefined && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
              e.preventDefault();
              const by = e.key === 'ArrowDown' ? 1 : -1;
              setMenu({ selected: (selected + by + hints.length) % hints.length, dismissed: false });
            } else if (pick !== undefined && (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey && text !== `/${pick.name}`))) {
              e.preventDefault();
              complete(pick.name);
            } else if (pick !== undefined && e.key === 'Escape') {
              e.preventDefault();
              setMenu({ selected: 0, dismissed: true });
            } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
              if (recall.onArrow(e.key === 'ArrowUp' ? 'up' : 'down', e.currentTarget)) e.preventDefault();
            } else if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            } else if (e.key === 'Escape' && running && !stopping) {
              e.preventDefault();
              void store.stopTurn(session.id);
            }
          }}
        />
        <div className="composer-buttons">
          <input
            ref={picker}
            type="file"
            multiple
            className="attach-input"
            data-testid="attach-input"
            onChange={(e) => {
              const files = Array.from(e.currentTarget.files ?? []);
              e.currentTarget.value = '';
              void attach(files);
            }}
          />
          <button
            type="button"
            onClick={() => picker.current?.click()}
            title="Attach images or mention files (or paste or drop them here)"
            data-testid="attach"
          >
            Attach
          </button>
          {running && (
            <button
              type="button"
              className="danger"
              disabled={stopping}
              onClick={() => void store.stopTurn(session.id)}
              title="Stop the running turn (Esc); prompts waiting in line come back here to edit"
              data-testid="cancel-turn"
            >
              {stopping ? 'Stopping…' : 'Stop'}
            </button>
          )}
          {running && !stopping && (
            <button
              type="button"
              disabled={text.trim() === '' || sending}
              onClick={() => void send(true)}
              title="Send now: interrupt the reply being written and steer this turn"
              data-testid="steer"
            >
              Steer
            </button>
          )}
          <button type="button" className="primary" disabled={empty || sending} onClick={() => void send()} data-testid="send">
            {running ? 'Queue' : session.live ? 'Send' : 'Resume'}
          </button>
        </div>
      </div>
      <div className="composer-status">
        <ModelPicker session={session} />
        <ModePicker session={session} />
        <span className="spacer" />
        <PlanMeter />
        <UsageMeter session={session} />
      </div>
    </div>
  );
}
