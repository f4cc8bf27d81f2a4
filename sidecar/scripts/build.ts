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

const outfile = resolve(SIDECAR_ROOT, option('--outfile') ?? process.env['BATON_SIDECAR_OUTFILE'] ?? '../build/bin/baton-sidecar');
const target = option('--target');
mkdirSync(dirname(outfile), { recursive: true });

const args = [
  'build',
  '--compile',
  '--minify',
  // Precompiled bytecode: every session's sidecar starts without parsing the SDK's source, about twice as fast,
  // and with a smaller heap (issue 16's runtime bench). Native builds only: a cross-compiled one is not run here,
  // so it keeps the plain bundle.
  ...(target === undefined ? ['--bytecode', '--format=esm'] : [`--target=${target}`]),
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
