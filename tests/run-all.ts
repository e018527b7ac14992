/**
 * `npm test`: type-check, then every Vitest project, then the browser suite. Prints one closing
 * line with the totals ("Total: N passed, N failed, N skipped") and fails if anything failed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

type PlaywrightSuite = { specs?: { title: string; file: string; line: number; tests?: { status: string }[] }[]; suites?: PlaywrightSuite[] };

mkdirSync('.tmp', { recursive: true });
const took: string[] = [];
const run = (command: string, args: string[], name: string) => {
  const started = Date.now();
  const status = spawnSync(command, args, { stdio: 'inherit', env: process.env }).status ?? 1;
  took.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
  return status;
};
const node = process.execPath;

const tsc = run(node, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'], 'typecheck');
console.log(tsc === 0 ? 'typecheck: clean' : 'typecheck: FAILED');

rmSync('.tmp/vitest.json', { force: true });
const vitest = run(node, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/vitest.json'], 'vitest');

rmSync('.tmp/playwright.json', { force: true });
const e2e = run(node, ['--import', 'tsx', 'e2e/run.ts'], 'e2e');

// The closing lines name every failed test, so the tail of a long CI log says what to mend.
const failures: string[] = [];
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync('.tmp/vitest.json')) {
  const report = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults?: { name: string; message?: string; status?: string; assertionResults?: { status: string; fullName: string }[] }[];
  };
  for (const file of report.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`${name} › ${test.fullName}`);
    if (file.status === 'failed' && failedTests.length === 0) failures.push(`${name} (the file failed: ${(file.message ?? '').split('\n')[0]})`);
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
if (existsSync('.tmp/playwright.json')) {
  const report = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number }; suites?: PlaywrightSuite[] };
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) for (const test of spec.tests ?? []) if (test.status === 'unexpected') failures.push(`${spec.file}:${spec.line} › ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
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
if (failures.length) console.log(`\nFailed:\n${failures.map((failure) => `  ${failure}`).join('\n')}`);
console.log(`\nTook: ${took.join(', ')}`);
console.log(`\nTotal: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(tsc === 0 && vitest === 0 && e2e === 0 ? 0 : 1);
