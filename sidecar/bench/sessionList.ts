// CPU of one cold session listing in process (issue 26: `baton sessions` over 1,000 sessions, cold): the import
// of the listing's modules, the first readSessions (what a fresh sidecar does for a cold `baton sessions`), then
// warm ones, and the SDK's listSessions alone. CPU time, not wall time. Prints an md5 of the listing, to compare.
//   CLAUDE_CONFIG_DIR=DIR node_modules/.bin/bun bench/sessionList.ts [SRC_DIR]   (SRC_DIR: a copy of src/ to compare)
// DIR: e.g. the bench's sessions-home/.claude (HISTORYBENCH_KEEP=1 scripts/bench history -only sessions).
// Run it with BUN_JSC_useFTLJIT=0, as the host runs the sidecar (app/sidecar/runtimeenv.go).
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const src = process.argv[2] ?? fileURLToPath(new URL('../src', import.meta.url));
const cpuMs = (from: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(from);
  return ((c.user + c.system) / 1e3).toFixed(0);
};
let at = process.cpuUsage();
const { readSessions } = await import(`${src}/history/sessions.ts`);
const { listSessions } = await import('@anthropic-ai/claude-agent-sdk');
const imported = cpuMs(at);
at = process.cpuUsage();
const list = await readSessions({});
const cold = cpuMs(at);
const warm: string[] = [];
for (let i = 0; i < 3; i++) {
  at = process.cpuUsage();
  await readSessions({});
  warm.push(cpuMs(at));
}
at = process.cpuUsage();
await listSessions({});
const sdk = cpuMs(at);
const md5 = createHash('md5').update(JSON.stringify(list)).digest('hex');
console.log(
  `import ${imported} ms; cold list ${cold} ms; warm ${warm.join(', ')} ms; SDK listSessions alone (warm) ${sdk} ms; ${list.length} sessions, md5 ${md5}`,
);
