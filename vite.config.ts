import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { formValidators } from './vite-plugin-form-validators.ts';
import { precompress } from './vite-plugin-precompress.ts';

export default defineConfig({
  // precompress: brotli and gzip copies beside each built file, sent by server/console.ts.
  plugins: [formValidators(), react(), precompress()],
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    sourcemap: false,
    // A record of which file each module went into (docs/console-delivery.md).
    manifest: true,
  },
});
