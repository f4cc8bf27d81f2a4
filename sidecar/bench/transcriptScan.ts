// CPU of pass 1 alone (scanTranscript: every line's facts, issue 26) over a transcript, for a cut measured
// before and after it: each round scans the whole file and prints its CPU time (not wall time) and the RSS after.
//   node_modules/.bin/bun bench/transcriptScan.ts FILE [SRC_DIR]   (SRC_DIR: a copy of src/ to compare; default ../src)
//   env ROUNDS: scans in one process (default 3). Run it with BUN_JSC_useFTLJIT=0, as the host runs the sidecar,
//   and alternate SRC_DIRs across processes (A, B, A, B, …): the machine's load moves more than most cuts.
import { fileURLToPath } from 'node:url';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: bun bench/transcriptScan.ts FILE [SRC_DIR]');
const src = process.argv[3] ?? fileURLToPath(new URL('../src', import.meta.url));
const { scanTranscript } = await import(`${src}/history/transcriptScan.ts`);

for (let round = 1; round <= Number(process.env.ROUNDS ?? 3); round++) {
  const start = process.cpuUsage();
  const scan = await scanTranscript(file, 0);
  const cpu = process.cpuUsage(start);
  const rss = (process.memoryUsage().rss / 1e6).toFixed(0);
  console.log(`round ${round}: pass 1 CPU ${((cpu.user + cpu.system) / 1e6).toFixed(3)} s, ${scan.lines.length} lines, RSS ${rss} MB`);
}
