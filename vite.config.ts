import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { formValidators } from './vite-plugin-form-validators.ts';

export default defineConfig({
  plugins: [formValidators(), react()],
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    sourcemap: false,
    // bench/bundle.ts reads the manifest to know which files the sign-in screen loads.
    manifest: true,
  },
});
