// CPU per streamed piece on the sidecar's own path (issue 32), for a cut measured before and after it:
// warmStreamPath (mapper, bounds, wire line, coalescing, serialising) over its 1,000 deltas, repeated, and the
// session's 401 check on each stream message. CPU time, not wall time: the machine is shared.
//   node_modules/.bin/bun bench/streamPath.ts [SRC_DIR [ROUNDS]]   (SRC_DIR: a copy of src/ to compare; default ../src)
// Run it with BUN_JSC_useFTLJIT=0, as the host runs the sidecar (app/sidecar/runtimeenv.go).
import { fileURLToPath } from 'node:url';

const src = process.argv[2] ?? fileURLToPath(new URL('../src', import.meta.url));
const rounds = Number(process.argv[3] ?? 60);
const { warmStreamPath, WARM_DELTAS } = await import(`${src}/mapper/warmUp.ts`);
const { RefusedTurns } = await import(`${src}/session/refusedTurns.ts`);
const now = () => new Date();

const cpuMicros = (run: () => void): number => {
  const before = process.cpuUsage();
  run();
  const spent = process.cpuUsage(before);
  return spent.user + spent.system;
};

for (let i = 0; i < 10; i++) warmStreamPath(now); // the engine compiles what runs hot before it is timed
const mapped = cpuMicros(() => {
  for (let i = 0; i < rounds; i++) warmStreamPath(now);
});

const refusals = new RefusedTurns();
const turn = { id: 't', dispatched: true };
const piece = {
  type: 'stream_event',
  parent_tool_use_id: null,
  uuid: 'u',
  session_id: 's',
  event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'word ' } },
};
const asks = rounds * WARM_DELTAS;
for (let i = 0; i < 20_000; i++) refusals.refuses(piece, turn, false);
const checked = cpuMicros(() => {
  for (let i = 0; i < asks; i++) refusals.refuses(piece, turn, false);
});

console.log(JSON.stringify({ src, pathMicrosPerDelta: +(mapped / (rounds * WARM_DELTAS)).toFixed(2), refusalCheckMicros: +(checked / asks).toFixed(3) }));
