/**
 * JavaScript on the wire before the login screen: Debian's Chromium opens the console's `/` with a
 * cold cache (a fresh browser context), follows the redirect to /login and waits for the sign-in
 * form; every script response is counted by the bytes the network actually carried (the Chrome
 * DevTools Protocol's `Network.loadingFinished.encodedDataLength`: compressed body plus headers).
 */
import { chromium, type Browser } from '@playwright/test';

export interface WireScript {
  url: string;
  /** Bytes transferred for the response (compressed body and headers). */
  wire: number;
  /** The response's Content-Encoding, or `identity`. */
  encoding: string;
}

export interface WireFigures {
  scripts: WireScript[];
  totalWire: number;
}

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** Opens `baseUrl` in a fresh context of `browser` and measures the scripts loaded until the sign-in form shows. */
export async function measureLoginWire(browser: Browser, baseUrl: string): Promise<WireFigures> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = new Map<string, { url: string; encoding: string }>();
    const finished = new Map<string, number>();
    cdp.on('Network.responseReceived', (event) => {
      if (event.type !== 'Script') return;
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      scripts.set(event.requestId, { url: event.response.url, encoding: headers['content-encoding'] ?? 'identity' });
    });
    cdp.on('Network.loadingFinished', (event) => {
      finished.set(event.requestId, event.encodedDataLength);
    });
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(/\/login(\?|$)/);
    await page.locator('input[type="password"]').waitFor();
    // Anything the first screen still fetches after drawing counts too.
    await page.waitForLoadState('networkidle');
    const measured: WireScript[] = [...scripts].map(([id, script]) => ({ ...script, wire: finished.get(id) ?? 0 }));
    return { scripts: measured.sort((a, b) => b.wire - a.wire), totalWire: measured.reduce((sum, s) => sum + s.wire, 0) };
  } finally {
    await context.close();
  }
}
