// Transcript jobs as the host's index uses them: pages of items, a resume point that continues an appended file
// exactly as a full read would map it, and a restart when the file was rewritten or a rewind branched it.
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptJobs } from '../../src/history/transcriptJobs.js';
import { MAPPER_VERSION } from '../../src/mapper/mapperVersion.js';
import type { OkPayload, TranscriptItem } from '../../src/protocol/schemas.js';
import { okPayloads } from '../../src/protocol/schemas.js';
import { assistantLine, type ConfigDir, configDir, text, toolResultLine, toolUse, userLine } from '../helpers/transcriptFiles.js';

const S = '5e551011-0000-4000-8000-00000000a001';
let dir: ConfigDir;
beforeAll(() => {
  dir = configDir();
});
afterAll(() => dir.remove());

const c = (uuid: string, parentUuid: string | null) => ({ uuid, parentUuid, session: S });
const firstPart = () => [
  userLine(c('u1', null), 'Write it'),
  assistantLine(c('a1', 'u1'), 'm1', [toolUse('t1', 'Write', { file_path: '/w/a.txt', content: 'x' })]),
  toolResultLine(c('r1', 'a1'), 't1', 'created', { filePath: '/w/a.txt', originalFile: null }),
  userLine(c('u2', 'r1'), 'Now run it'),
  assistantLine(c('a2', 'u2'), 'm2', [toolUse('t2', 'Bash', { command: 'sleep 5' })]),
];
const more = () => [
  toolResultLine(c('r2', 'a2'), 't2', 'slept'),
  userLine(c('u3', 'r2'), 'Thanks'),
  assistantLine(c('a3', 'u3'), 'm3', [text('You are welcome')]),
];

async function readAll(
  jobs: TranscriptJobs,
  open: OkPayload<'transcript_open'>,
  maxEvents = 2,
): Promise<{ items: TranscriptItem[]; last: OkPayload<'transcript_next'> }> {
  const items: TranscriptItem[] = [];
  for (;;) {
    // The page comes serialised, as its reply line carries it.
    const page = okPayloads.transcript_next.parse(JSON.parse((await jobs.next({ job: open.job, maxEvents })).text()));
    expect(page.items.length).toBeLessThanOrEqual(maxEvents);
    items.push(...page.items);
    if (page.done) {
      await jobs.close({ job: open.job });
      return { items, last: page };
    }
  }
}

const strip = (items: readonly TranscriptItem[]) => items.map((i) => ({ ...i, event: { ...i.event, time: '' } }));

describe('transcript jobs', () => {
  it('pages the mapped transcript, each item with the uuid of its line, and ends with a resume point', async () => {
    const file = dir.write(`${S}.jsonl`, firstPart());
    const jobs = new TranscriptJobs();
    const open = okPayloads.transcript_open.parse(await jobs.open({ session: S, file }));
    expect(open).toMatchObject({ restarted: false, mapper: MAPPER_VERSION });
    const { items, last } = await readAll(jobs, open);
    expect(items.map((i) => `${i.event.kind}@${i.uuid ?? '-'}`)).toEqual([
      'turn.started@u1',
      'model.resolved@a1',
      'tool.started@a1',
      'tool.completed@r1',
      'turn.started@u2',
      'tool.started@a2',
      'tool.interrupted@-',
    ]);
    expect(last.bytesRead).toBe(open.bytesTotal);
    expect(last.resume).toMatchObject({ items: 4 });
    expect(JSON.stringify(last.resume?.state).length).toBeLessThan(1000);
    await expect(jobs.next({ job: open.job, maxEvents: 1 })).rejects.toThrow(/no transcript job/);
  });

  it('continues from the resume point when the file only grew, as a full read maps it', async () => {
    const file = dir.write(`${S}.jsonl`, firstPart());
    const jobs = new TranscriptJobs();
    const first = await readAll(jobs, await jobs.open({ session: S, file }));
    appendFileSync(
      file,
      more()
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
    const resume = first.last.resume!;
    const open = await jobs.open({ session: S, file, resume: { offset: resume.offset, state: resume.state } });
    expect(open.restarted).toBe(false);
    const rest = await readAll(jobs, open, 3);
    const full = await readAll(jobs, await jobs.open({ session: S, file }), 100);
    expect(strip([...first.items.slice(0, resume.items), ...rest.items])).toEqual(strip(full.items));
    // The call the first read closed as session_ended now has its result.
    expect(full.items.map((i) => i.event.kind)).toContain('tool.completed');
    expect(full.items.some((i) => i.event.kind === 'tool.interrupted')).toBe(false);
  });

  it('starts over when the file was rewritten or a rewind branched it', async () => {
    const file = dir.write(`${S}.jsonl`, firstPart());
    const jobs = new TranscriptJobs();
    const { resume } = (await readAll(jobs, await jobs.open({ session: S, file }))).last;
    const at = { offset: resume!.offset, state: resume!.state };
    // A rewind to before the first prompt: the new prompt continues nothing the resume point had.
    appendFileSync(file, `${JSON.stringify(userLine(c('u9', null), 'Do something else'))}\n`);
    const branched = await jobs.open({ session: S, file, resume: at });
    expect(branched.restarted).toBe(true);
    const items = (await readAll(jobs, branched, 100)).items;
    expect(items.filter((i) => i.event.kind === 'turn.started').map((i) => i.uuid)).toEqual(['u9']);
    dir.write(`${S}.jsonl`, [userLine(c('x1', null), 'Another conversation')]);
    expect((await jobs.open({ session: S, file, resume: at })).restarted).toBe(true);
  });
});
