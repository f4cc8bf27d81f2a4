// Builds the benchmark page (bench/page) with the console's own sources, production mode, into a temp dir
// given on the command line (--outDir).
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: { emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
});
