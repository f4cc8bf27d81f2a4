// Vite empties frontend/dist before a build; the Go binary embeds that folder (//go:embed all:frontend/dist),
// which must exist even before the first build, so the tracked placeholder is put back afterwards.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
writeFileSync(join(dist, '.gitkeep'), '');
