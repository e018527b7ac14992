import { defineConfig } from '@playwright/test';

/** Specs that change what every other test meets (a platform-wide setting): run last, alone. */
const globalSpecs = ['**/admin-billing.spec.ts'];

/** Browser tests in Debian's Chromium against a server that e2e/run.ts starts. */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Two spec files at once, each on its own accounts; a file's tests run in order
  // (docs/architecture.md "Browser tests side by side"). E2E_WORKERS=1 runs one at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // One retry in CI, as Playwright recommends for loaded runners; the report names any test that
  // passed only on its retry as flaky (docs/architecture.md "Retries in the browser suite").
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: '../.tmp/e2e-results',
  reporter: [['list'], ['json', { outputFile: '../.tmp/playwright.json' }]],
  projects: [
    { name: 'chromium', testIgnore: globalSpecs },
    // What changes every organization's billing (soft launch) runs after the rest, alone.
    { name: 'global', testMatch: globalSpecs, dependencies: ['chromium'] },
  ],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
