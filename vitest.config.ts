import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two workers for two cores; PGlite instances are large, so not more.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/models/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'dom',
          include: ['tests/dom/**/*.test.{ts,tsx}', 'tests/renderers/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // A bound against hangs, not a speed target: an editor's first render in jsdom can take
          // seconds on a loaded two-core runner (speed is measured by `npm run bench`).
          testTimeout: 20_000,
          setupFiles: ['tests/dom/setup.ts'],
        },
      },
    ],
  },
});
