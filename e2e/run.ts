/**
 * `npm run e2e`: makes sure Debian's Chromium is there (installing it with apt when we may),
 * builds the console, starts the product and runs the Playwright tests against it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildConsole, consoleIsStale } from '../server/build-console.ts';
import { startServer } from './support/server.ts';
import { findCardNumbers } from './support/card-number-scan.ts';
import { superAdmin } from './support/super-admin.ts';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function ensureChromium() {
  if (existsSync(chromium)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) {
    console.error(`Chromium is missing at ${chromium}. Install Debian's package: sudo apt-get install -y chromium`);
    process.exit(1);
  }
  console.log('Installing Debian Chromium for the browser tests (apt-get install chromium)…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

ensureChromium();
if (consoleIsStale()) await buildConsole();

// Rate limits stay on but far above what the tests do, except where a test lowers one on purpose.
const server = await startServer({
  RATE_LIMIT_LOGIN_ACCOUNT: '200/1m',
  RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS: '200/1m',
  RATE_LIMIT_LOGIN_ADDRESS: '1000/1m',
  RATE_LIMIT_RESET_ACCOUNT: '200/1m',
  RATE_LIMIT_RESET_ADDRESS: '1000/1m',
  RATE_LIMIT_SIGNUP_ADDRESS: '1000/1m',
  RATE_LIMIT_MAIL_SEND_USER: '1000/1m',
  RATE_LIMIT_MAIL_PREVIEW_USER: '1000/1m',
  // Link previews may reach pages the tests serve on 127.0.0.2, and nothing else private (docs/security.md "Outbound requests").
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.2/32',
  // Webhook retries seconds apart, so e2e/webhooks.spec.ts sees them (docs/webhooks.md).
  WEBHOOK_RETRY_SCHEDULE: '2s,3s',
  WEBHOOK_POLL_S: '0.5',
  // The platform super-admin of e2e/support/super-admin.ts: moves billing dates, runs billing, uses /admin.
  SUPER_ADMIN_USERNAMES: superAdmin.username,
}, (serverEnv) => {
  // A configured name is reserved (docs/admin.md "Access"): only the command line makes its user,
  // here in the empty data directory before the server holds it. ADMIN_PASSWORD keeps the password
  // out of the process list (docs/cli.md "Administrators and migrations").
  execFileSync(process.execPath, ['bin/larder.mjs', 'admin', 'create', '--email', superAdmin.email, '--username', superAdmin.username], {
    env: { ...serverEnv, ADMIN_PASSWORD: superAdmin.password },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
});
// Spec files named on the command line run by themselves (not the whole suite the `global`
// project waits for) and one at a time, so a spec of `global` never runs beside another
// (docs/architecture.md "Browser tests side by side").
const args = process.argv.slice(2);
const chosen = args.some((arg) => !arg.startsWith('-'));
let status = 1;
try {
  const result = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '-c', 'e2e/playwright.config.ts', ...(chosen ? ['--no-deps'] : []), ...args],
    { stdio: 'inherit', env: { ...process.env, E2E_BASE_URL: server.url, ...(chosen && !process.env.E2E_WORKERS ? { E2E_WORKERS: '1' } : {}) } },
  );
  status = result.status ?? 1;
} finally {
  // The card pages saw full test numbers: none may be left in the database's files or the server's output (docs/security.md "Card data").
  await server.stop({
    inspect: (dataDir, output) => {
      const found = findCardNumbers(dataDir, output);
      if (found.length === 0) return console.log('Full card numbers in the database files or the server output: none');
      console.error(`Full card numbers kept or logged by the server:\n  ${found.join('\n  ')}`);
      status = 1;
    },
  });
}
process.exit(status);
