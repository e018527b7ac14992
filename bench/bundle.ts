/**
 * `npm run bench -- bundle`: the JavaScript a browser downloads before the login screen is drawn,
 * counted as it crosses the network. The product is started as `npm start` runs it (building the
 * console first when it is stale), Debian's Chromium opens `/` with a cold cache, follows the
 * redirect to /login and waits for the sign-in form; every script response counts with the bytes
 * the DevTools protocol reports as transferred (`encodedDataLength`: compressed body and headers).
 * Budget: 200 KB (docs/performance.md). `--json` prints the figures as JSON.
 */
import { buildConsole, consoleIsStale } from '../server/build-console.ts';
import { startServer } from '../e2e/support/server.ts';
import { launchChromium, measureLoginWire, type WireFigures } from './support/wire-bytes.ts';

export const BUDGET_BYTES = 200 * 1024;

export async function measure(): Promise<WireFigures & { budget: number }> {
  if (consoleIsStale()) {
    console.log('Building the console…');
    await buildConsole();
  }
  const server = await startServer();
  try {
    const browser = await launchChromium();
    try {
      return { ...(await measureLoginWire(browser, server.url)), budget: BUDGET_BYTES };
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function run(args: string[]): Promise<number> {
  const figures = await measure();
  if (args.includes('--json')) {
    console.log(JSON.stringify(figures, null, 2));
  } else {
    console.log('JavaScript on the wire before the login screen is drawn (Chromium, cold cache):');
    for (const s of figures.scripts) console.log(`  ${kb(s.wire).padStart(9)}  ${s.encoding.padEnd(8)}  ${new URL(s.url).pathname}`);
    console.log(`Total: ${kb(figures.totalWire)} in ${figures.scripts.length} scripts; budget ${kb(figures.budget)}.`);
  }
  if (figures.totalWire > figures.budget) {
    console.error(`Over budget by ${kb(figures.totalWire - figures.budget)}.`);
    return 1;
  }
  return 0;
}
