// CPU and memory of one transcript job in process (issue 26: the index build's sidecar side), for a cut
// measured before and after it: TranscriptJobs over a transcript, each page sent through the LineWriter to
// /dev/null, with RSS and the JS heap (bun:jsc heapStats) printed every 25 pages. CPU time, not wall time.
//   node_modules/.bin/bun bench/transcriptJob.ts FILE [SRC_DIR]   (SRC_DIR: a copy of src/ to compare; default ../src)
//   env MAXEV: events a page asks for (default 2000, the index's); EVERY: print the heap every N pages (default 25).
// FILE: e.g. the bench's chained 120 MB transcript (HISTORYBENCH_KEEP=1 scripts/bench history -only serve).
// Run it with BUN_JSC_useFTLJIT=0, as the host runs the sidecar (app/sidecar/runtimeenv.go).
import { openSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { heapStats } from 'bun:jsc';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: bun bench/transcriptJob.ts FILE [SRC_DIR]');
const src = process.argv[3] ?? fileURLToPath(new URL('../src', import.meta.url));
const { TranscriptJobs } = await import(`${src}/history/transcriptJobs.ts`);
const { LineWriter } = await import(`${src}/protocol/lineWriter.ts`);
// okReply: the sidecar's reply path (a serialised page spliced as it is); okLine on a copy from before it.
const { okLine, okReply } = await import(`${src}/protocol/codec.ts`);
const reply = okReply ?? okLine;

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const show = (label: string) => {
  const h = heapStats();
  console.log(`${label}: RSS ${mb(process.memoryUsage().rss)} MB, heap ${mb(h.heapSize)} MB, extra ${mb(h.extraMemorySize)} MB, ${h.objectCount} objects`);
};
const devNull = openSync('/dev/null', 'w');
const writer = new LineWriter((data: string | Uint8Array, done: () => void) => {
  // Text is encoded as the pipe's write would; bytes (a serialised page) go as they are.
  writeSync(devNull, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  done();
});
const start = process.cpuUsage();
const jobs = new TranscriptJobs();
const open = await jobs.open({ session: basename(file, '.jsonl'), file });
show('opened (pass 1)');
let peak = 0;
for (let pages = 1; ; pages++) {
  const page = await jobs.next({ job: open.job, maxEvents: Number(process.env.MAXEV ?? 2000) });
  writer.send(reply(`r${pages}`, page));
  await writer.flush();
  peak = Math.max(peak, process.memoryUsage().rss);
  if (pages % Number(process.env.EVERY ?? 25) === 0) show(`page ${pages}, ${mb(page.bytesRead)} MB read`);
  if (page.done) break;
}
const cpu = process.cpuUsage(start);
console.log(
  `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, RSS peak ${mb(peak)} MB (sampled per page), max RSS ${mb(process.resourceUsage().maxRSS * 1e3)} MB`,
);
