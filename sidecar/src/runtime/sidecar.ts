// The sidecar's request loop: input bytes → bounded lines → decoded requests → dispatcher; rejected lines
// get the error reply or protocol.error event PROTOCOL.md prescribes. Knows nothing of stdio (main.ts does).
import { fitEvent } from '../protocol/bounds.js';
import { type SerialisedLine, type WireLine, decodeLine, errorLine, eventLine, okReply } from '../protocol/codec.js';
import type { ErrorCode } from '../protocol/errors.js';
import { type EmitEvent, type Event, stampEvent } from '../protocol/events.js';
import { BoundedLineReader } from '../protocol/lineReader.js';
import type { LineWriter } from '../protocol/lineWriter.js';
import { MAX_LINE_BYTES } from '../protocol/version.js';
import { assertNever } from '../util/assertNever.js';
import type { Backend } from './backend.js';
import { Dispatcher } from './dispatcher.js';

/** Told of every line either way and every event sent (runtime/idleTrim.ts waits for quiet by it). */
export interface TrafficWatch {
  traffic(): void;
  event(event: Event): void;
}

export interface SidecarOptions {
  backend: Backend;
  writer: LineWriter;
  now: () => Date;
  maxLineBytes?: number;
  watch?: TrafficWatch;
}

const unwatched: TrafficWatch = { traffic: () => {}, event: () => {} };

export class Sidecar {
  private readonly reader: BoundedLineReader;
  private readonly dispatcher: Dispatcher;
  private readonly writer: LineWriter;
  private readonly now: () => Date;
  private readonly watch: TrafficWatch;
  private stopping: Promise<void> | undefined;

  constructor(options: SidecarOptions) {
    this.writer = options.writer;
    this.now = options.now;
    this.watch = options.watch ?? unwatched;
    const emit: EmitEvent = (event: Event) => {
      this.writer.send(eventLine(fitEvent(event)));
      this.watch.event(event);
    };
    this.dispatcher = new Dispatcher(
      options.backend,
      {
        ok: (id, payload) => this.reply(okReply(id, payload)),
        error: (id, failure) => this.reply(errorLine(id, failure.code, failure.message)),
      },
      emit,
    );
    this.reader = new BoundedLineReader(options.maxLineBytes ?? MAX_LINE_BYTES, {
      line: (text) => this.onLine(text),
      tooLong: (head) => this.lineTooLong(head),
    });
  }

  /** Feeds bytes read from the host. */
  push(chunk: Buffer): void {
    if (this.stopping === undefined) this.reader.push(chunk);
  }

  /** The host closed its end: close every session, wait for pending replies, flush. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.reader.end();
      await this.dispatcher.shutdown();
      await this.writer.flush();
    })();
    return this.stopping;
  }

  private reply(line: WireLine | SerialisedLine): void {
    this.writer.send(line);
    this.watch.traffic();
  }

  private onLine(text: string): void {
    this.watch.traffic();
    const decoded = decodeLine(text);
    switch (decoded.kind) {
      case 'request':
        void this.dispatcher.dispatch(decoded.request);
        return;
      case 'reject':
        this.writer.send(errorLine(decoded.id, decoded.code, decoded.message));
        return;
      case 'protocol_error':
        this.protocolError(decoded.code, decoded.message);
        return;
      default:
        assertNever(decoded);
    }
  }

  /** A dropped line that names its id gets an error reply (the host's call would otherwise wait in vain);
   * one that does not, a protocol.error event. */
  private lineTooLong(head: string): void {
    const message = `a line longer than ${MAX_LINE_BYTES} bytes (8 MiB) was dropped`;
    const id = leadingId(head);
    if (id === undefined) this.protocolError('line_too_long', message);
    else this.writer.send(errorLine(id, 'line_too_long', message));
  }

  private protocolError(code: ErrorCode, message: string): void {
    this.writer.send(eventLine(stampEvent({ kind: 'protocol.error', code, message }, '', this.now)));
  }
}

/** The id of an envelope whose "id" is among its leading fields (the host writes v, id, type first); the rest of
 * the line is never parsed. */
const LEADING_ID = /^\s*\{\s*(?:"v"\s*:\s*[^,{}"]*,\s*)?"id"\s*:\s*"([^"\\]{1,128})"/;

function leadingId(head: string): string | undefined {
  return LEADING_ID.exec(head)?.[1];
}
