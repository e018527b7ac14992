/**
 * `npm test`: type-check, then every Vitest project, then the browser suite. Prints one closing
 * line with the totals ("Total: N passed, N failed, N skipped") and fails if anything failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('.tmp', { recursive: true });
const run = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'inherit', env: process.env }).status ?? 1;
const node = process.execPath;

const tsc = run(node, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']);
console.log(tsc === 0 ? 'typecheck: clean' : 'typecheck: FAILED');

rmSync('.tmp/vitest.json', { force: true });
const vitest = run(node, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/vitest.json']);

rmSync('.tmp/playwright.json', { force: true });
const e2e = run(node, ['--import', 'tsx', 'e2e/run.ts']);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync('.tmp/vitest.json')) {
  const report = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
if (existsSync('.tmp/playwright.json')) {
  const report = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
  // Passed only on their CI retry (docs/architecture.md "Retries in the browser suite"): named above by the list reporter.
  if (report.stats.flaky) console.log(`\nFlaky browser tests (passed on their retry): ${report.stats.flaky}`);
}
// A runner that crashed before reporting still counts as a failure.
if (vitest !== 0 && failed === 0) failed += 1;
if (e2e !== 0 && failed === 0) failed += 1;
if (tsc !== 0) failed += 1;
console.log(`\nTotal: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(tsc === 0 && vitest === 0 && e2e === 0 ? 0 : 1);
