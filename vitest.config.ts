import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/server/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite instances are large; two workers fit two cores.
          maxWorkers: 2,
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
        },
      },
    ],
  },
});
