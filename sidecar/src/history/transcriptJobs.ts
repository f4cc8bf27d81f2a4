// Transcript jobs (PROTOCOL.md, "Transcript jobs"): the host's index pulls a session's mapped transcript in pages.
// open runs pass 1 and answers how large the file is and whether a resume could continue; next gives the items in
// order, as many as asked that fit one protocol line; the last page carries the resume point; close forgets the job.
import { MAPPER_VERSION } from '../mapper/mapperVersion.js';
import { MAX_EVENT_BYTES } from '../protocol/bounds.js';
import { ProtocolFailure } from '../protocol/errors.js';
import type { OkPayload, TranscriptClosePayload, TranscriptNextPayload, TranscriptOpenPayload } from '../protocol/schemas.js';
import type { Item } from './settleStream.js';
import { collectAfterPass } from './heap.js';
import { type SizedItem, sizedItem, type TranscriptPage, transcriptPage } from './transcriptPage.js';
import { TranscriptReader } from './transcriptReader.js';

/** Jobs kept at once; opening one more forgets the oldest (a host that died mid-job never closes it). */
const MAX_JOBS = 8;

interface Job {
  reader: TranscriptReader;
  items: AsyncIterator<Item>;
  /** Items read and fitted but not sent yet, in order: the read-ahead, and an item that did not fit the last page. */
  ready: SizedItem[];
  readyBytes: number;
  /** What the read-ahead failed with; the next page reports it. */
  failed: unknown;
  done: boolean;
  /** Closed or forgotten: nothing more is read ahead. */
  closed: boolean;
  /** Pages (and the read-ahead) of one job are made one after another. */
  busy: Promise<unknown>;
}

export class TranscriptJobs {
  private readonly jobs = new Map<string, Job>();
  private counter = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  async open(payload: TranscriptOpenPayload): Promise<OkPayload<'transcript_open'>> {
    const reader = await TranscriptReader.open(
      { session: payload.session, file: payload.file, receipts: payload.receipts, resume: payload.resume },
      this.now,
    ).catch((err: unknown) => {
      throw new ProtocolFailure('bad_request', `could not read transcript ${payload.file}: ${err instanceof Error ? err.message : String(err)}`);
    });
    // Pass 1's lines are unreachable once open returned (its frame is gone, so no stack slot still holds them).
    collectAfterPass(reader.bytesTotal);
    const job = `tj${++this.counter}`;
    const items = reader.items()[Symbol.asyncIterator]();
    this.jobs.set(job, { reader, items, ready: [], readyBytes: 0, failed: undefined, done: false, closed: false, busy: Promise.resolve() });
    for (const old of this.jobs.keys()) if (this.jobs.size > MAX_JOBS) void this.forget(old);
    return { job, bytesTotal: reader.bytesTotal, restarted: reader.restarted, mapper: MAPPER_VERSION };
  }

  async next(payload: TranscriptNextPayload): Promise<TranscriptPage> {
    const job = this.job(payload.job);
    const page = job.busy.then(() => this.page(job, payload.maxEvents));
    // The next page is read ahead while the host stores this one, once this reply is on its way (two turns of
    // the event loop: the line writer sends it on the first).
    job.busy = page
      .then(afterReply)
      .then(() => this.readAhead(job, payload.maxEvents))
      .catch(() => undefined);
    return page;
  }

  async close(payload: TranscriptClosePayload): Promise<OkPayload<'transcript_close'>> {
    this.job(payload.job);
    await this.forget(payload.job);
    return {};
  }

  private job(id: string): Job {
    const job = this.jobs.get(id);
    if (job === undefined) throw new ProtocolFailure('bad_request', `no transcript job ${id} (closed, or forgotten for newer ones)`);
    return job;
  }

  private async forget(id: string): Promise<void> {
    const job = this.jobs.get(id);
    this.jobs.delete(id);
    if (job !== undefined) job.closed = true;
    await job?.items.return?.();
  }

  private async page(job: Job, maxEvents: number): Promise<TranscriptPage> {
    const items: SizedItem[] = [];
    let bytes = 0;
    for (;;) {
      if (items.length >= maxEvents) break;
      if (job.ready.length === 0 && !(await this.readOne(job))) break;
      const next = job.ready[0]!;
      if (items.length > 0 && bytes + next.size > MAX_EVENT_BYTES) break; // waits for the next page
      job.ready.shift();
      job.readyBytes -= next.size;
      items.push(next);
      bytes += next.size;
    }
    const done = job.done && job.ready.length === 0;
    const resume = done ? job.reader.resume : undefined;
    return transcriptPage(items, done, job.reader.bytesRead, resume);
  }

  /** Reads and fits up to one page's worth of items before they are asked for. */
  private async readAhead(job: Job, maxEvents: number): Promise<void> {
    if (job.closed) return;
    try {
      while (job.ready.length < maxEvents && job.readyBytes < MAX_EVENT_BYTES && (await this.readOne(job)));
    } catch (err) {
      job.failed = err;
    }
  }

  /** Reads one more item into `ready`; false when the job has none left. */
  private async readOne(job: Job): Promise<boolean> {
    if (job.failed !== undefined) {
      const err = job.failed;
      job.failed = undefined;
      throw err;
    }
    if (job.done) return false;
    const item = await this.read(job);
    if (item === undefined) return false;
    const sized = sizedItem(item);
    job.ready.push(sized);
    job.readyBytes += sized.size;
    return true;
  }

  private async read(job: Job): Promise<Item | undefined> {
    const next = await job.items.next();
    if (next.done === true) {
      job.done = true;
      return undefined;
    }
    return next.value;
  }
}

function afterReply(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
