// Transcript jobs (PROTOCOL.md, "Transcript jobs"): the host's index pulls a session's mapped transcript in pages.
// open runs pass 1 and answers how large the file is and whether a resume could continue; next gives the items in
// order, as many as asked that fit one protocol line; the last page carries the resume point; close forgets the job.
import { MAPPER_VERSION } from '../mapper/mapperVersion.js';
import { byteLength, fitEvent, MAX_EVENT_BYTES } from '../protocol/bounds.js';
import { ProtocolFailure } from '../protocol/errors.js';
import type { OkPayload, TranscriptClosePayload, TranscriptItem, TranscriptNextPayload, TranscriptOpenPayload } from '../protocol/schemas.js';
import type { Item } from './settleStream.js';
import { TranscriptReader } from './transcriptReader.js';

/** Jobs kept at once; opening one more forgets the oldest (a host that died mid-job never closes it). */
const MAX_JOBS = 8;

interface Job {
  reader: TranscriptReader;
  items: AsyncIterator<Item>;
  /** An item read that did not fit the last page. */
  carry: Item | undefined;
  done: boolean;
  /** Pages of one job are made one after another. */
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
    const job = `tj${++this.counter}`;
    this.jobs.set(job, { reader, items: reader.items()[Symbol.asyncIterator](), carry: undefined, done: false, busy: Promise.resolve() });
    for (const old of this.jobs.keys()) if (this.jobs.size > MAX_JOBS) void this.forget(old);
    return { job, bytesTotal: reader.bytesTotal, restarted: reader.restarted, mapper: MAPPER_VERSION };
  }

  async next(payload: TranscriptNextPayload): Promise<OkPayload<'transcript_next'>> {
    const job = this.job(payload.job);
    const page = job.busy.then(() => this.page(job, payload.maxEvents));
    job.busy = page.catch(() => undefined);
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
    await job?.items.return?.();
  }

  private async page(job: Job, maxEvents: number): Promise<OkPayload<'transcript_next'>> {
    const items: TranscriptItem[] = [];
    let bytes = 0;
    while (items.length < maxEvents && !job.done) {
      const item = job.carry ?? (await this.read(job));
      job.carry = undefined;
      if (item === undefined) break;
      const fitted: TranscriptItem = { ...(item.uuid !== undefined ? { uuid: item.uuid } : {}), event: fitEvent(item.event) };
      const size = byteLength(fitted) + 1;
      if (items.length > 0 && bytes + size > MAX_EVENT_BYTES) {
        job.carry = item;
        break;
      }
      items.push(fitted);
      bytes += size;
    }
    const resume = job.done ? job.reader.resume : undefined;
    return { items, done: job.done && job.carry === undefined, bytesRead: job.reader.bytesRead, ...(resume !== undefined ? { resume } : {}) };
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
