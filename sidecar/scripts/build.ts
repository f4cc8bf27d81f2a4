// Compiles the sidecar into one self-contained executable (no node needed at run time):
//   npm run build                         → ../build/bin/baton-sidecar
//   npm run build -- --outfile X          → X          (or BATON_SIDECAR_OUTFILE=X npm run build)
//   npm run build -- --target bun-windows-x64 --outfile X.exe   (cross-compile; any bun --target)
// Run under bun (npm's script runs `bun scripts/build.ts`), so process.execPath is the bun binary.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIDECAR_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const at = args.indexOf(name);
  if (at !== -1) return args[at + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

const outfile = resolve(
  SIDECAR_ROOT,
  option('--outfile') ?? process.env['BATON_SIDECAR_OUTFILE'] ?? '../build/bin/baton-sidecar',
);
const target = option('--target');
mkdirSync(dirname(outfile), { recursive: true });

const args = [
  'build',
  '--compile',
  '--minify',
  // smol: a smaller heap, collected sooner. A session's sidecar mostly waits (on the person, on claude), so its
  // memory matters more than the last bit of throughput (issue 16's runtime bench measures both).
  '--compile-exec-argv=--smol',
  ...(target !== undefined ? [`--target=${target}`] : []),
  'src/main.ts',
  '--outfile',
  outfile,
];
const built = spawnSync(process.execPath, args, { cwd: SIDECAR_ROOT, stdio: 'inherit' });
if (built.status !== 0) {
  process.stderr.write(`bun build failed (exit ${built.status ?? built.signal})\n`);
  process.exit(built.status ?? 1);
}
process.stderr.write(`built ${outfile}\n`);
