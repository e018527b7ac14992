/**
 * The calendar, kanban and map layouts of the item list on a million items: how long
 * each takes, in a real browser against the real server, from the start of the navigation to the
 * first paint of its content, and what each API call it makes costs the server.
 *
 *   npm run bench -- layouts                        # 1,000,000 items, PostgreSQL then PGlite
 *   npm run bench -- layouts --items 20000 --db pglite
 *   npm run bench -- layouts --db postgres --keep   # keep the seeded database, print its name
 *   npm run bench -- layouts --reuse larder_bench_layouts_…
 *   npm run bench -- layouts --loads 10 --json
 *
 * The seed makes the owner, organization, project and a collection "places" through the API
 * (Title PlainText, When Date, Stage Option of four choices, Place GeoPoint), then bulk-loads the
 * items into its table with the indexes deferred (bench/support/bulk-load.ts, as bench/list.ts):
 * dates spread over five years (2022–2026, so the month the calendar opens on holds about
 * 1/60 of the items), points over Europe (most near one of 40 towns, the rest anywhere in the
 * box), and 3 % of the items without a date, 3 % without a stage and 4 % without a place.
 *
 * For each layout the settings are saved through the layout API (`layout`, `startKey`, `titleKeys`,
 * `activeField`, the map's `center`), the console is opened at `?layout=…` in Chromium (signed in
 * once; every load a new tab of that session, so the console's scripts come from the browser's
 * cache as they do for a returning editor) and the page itself notes the first frame in which
 * the content is there: calendar, the first event and the first entry of the side list of
 * undated items; kanban, a card in every column (the Unset column among them); map, the first
 * marker and the first entry of the Unset Markers list. Times are the page's `performance.now()`
 * at the next animation frame after the elements appeared: milliseconds since navigation start.
 * One warm-up load, then `--loads` (10) measured ones; p50/p95.
 *
 * The list calls each load made are recorded from the browser; each distinct one is then timed
 * again directly over HTTP (bench/list.ts's timeCase: three warm-ups, then p50/p95) — the server's
 * time for that call, without the browser.
 *
 * The console served is the one built in dist/console (built first only when missing: the
 * checkout may be mid-edit, and the browser tests may be serving that build).
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { generateNKeysBetween } from 'fractional-indexing';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { fieldTypes } from '../definitions/field-types/index.ts';
import { buildApp, type App } from '../server/app.ts';
import { buildConsole } from '../server/build-console.ts';
import { consoleDir } from '../server/console.ts';
import { loadConfig } from '../server/config.ts';
import type { Database } from '../server/db/index.ts';
import { newId } from '../server/lib/ids.ts';
import { fieldColumn } from '../server/content/schema-tree.ts';
import { freePort } from '../e2e/support/server.ts';
import { call, openBenchDatabase, percentile, round, signInAdmin, timeCase, type CaseFigure, type Kind } from './list.ts';
import { loadWithIndexesDeferred, writeBatchesOverlapped } from './support/bulk-load.ts';
import { phrase, prng, vocabulary } from './support/data.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const stages = ['idea', 'planned', 'doing', 'done'];
const layoutNames = ['calendar', 'kanban', 'map'] as const;
type LayoutName = (typeof layoutNames)[number];

/** Where the map opens (Frankfurt, at the layout's default zoom 6). */
const mapCenter = { lat: 50.1, lng: 8.7 };
/** The points' box: Europe. */
const box = { minLat: 36, maxLat: 70, minLng: -10, maxLng: 40 };

interface LayoutFigure {
  /** Milliseconds from navigation start to the first frame showing each part. */
  paint: Record<string, { p50: number; p95: number; max: number }>;
  loads: number;
  /** Each distinct list call one load made, timed again over HTTP. */
  calls: Record<string, CaseFigure>;
}

interface Figures {
  db: Kind;
  items: number;
  seedSeconds: number;
  loadAverage?: [number, number];
  layouts: Partial<Record<LayoutName, LayoutFigure>>;
}

/** The owner, organization, project and collection, made through the API; then the bulk load. */
async function seed(app: App, database: Database, base: string, items: number, log: (line: string) => void) {
  await app.ctx.users.bootstrapAdmin();
  const token = await signInAdmin(base);
  const org = (await call(base, token, 'POST', '/api/organization', { name: 'Bench' })).body as { id: string };
  const project = (await call(base, token, 'POST', `/api/organization/${org.id}/project`, { name: 'Bench' })).body as { id: string };
  const prefix = `/api/organization/${org.id}/project/${project.id}`;
  await call(base, token, 'POST', `${prefix}/collection`, {
    id: 'places',
    name: 'Places',
    schema: [
      { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
      { name: 'When', slug: 'when', type: code('Date') },
      { name: 'Stage', slug: 'stage', type: code('Option'), options: stages.map((value) => ({ value })) },
      { name: 'Place', slug: 'place', type: code('GeoPoint') },
    ],
  });
  const row = (await database.db.execute(sql`select id, schema from content_collections where slug = 'places' and project_id = ${project.id}`)) as unknown as {
    rows: { id: string; schema: { id: string; slug: string; options?: { _id: string; value: string }[] }[] }[];
  };
  const collection = row.rows[0]!;
  const table = `content_${collection.id}`;
  const id = (slug: string) => sql.identifier(fieldColumn(collection.schema.find((f) => f.slug === slug)!.id));
  const options = collection.schema.find((f) => f.slug === 'stage')!.options!;

  const random = prng(7);
  const words = vocabulary(random, 5000);
  const towns = Array.from({ length: 40 }, () => ({ lat: box.minLat + random() * (box.maxLat - box.minLat), lng: box.minLng + random() * (box.maxLng - box.minLng) }));
  const ranks = generateNKeysBetween(null, null, items);
  const from = Date.UTC(2022, 0, 1);
  const span = Date.UTC(2027, 0, 1) - from;
  const created0 = Date.UTC(2021, 0, 1);
  // Each statement yields to the event loop, as bench/list.ts explains (PGlite runs in this thread).
  const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
  const run = async (text: string) => {
    const result = (await database.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] };
    await yieldToLoop();
    return result;
  };
  const build = (text: string) => (database.kind === 'postgres' && /^create index/i.test(text) ? run(`set maintenance_work_mem = '512MB'; ${text}`) : run(text));
  const batch = 5000;
  const inserters = database.kind === 'postgres' ? 2 : 1;
  const begin = performance.now();
  const { rowsSeconds, indexSeconds } = await loadWithIndexesDeferred(
    build,
    table,
    async () => {
      await writeBatchesOverlapped(
        items,
        batch,
        inserters,
        async (offset, n) => {
          const ids: string[] = [];
          const rankList: string[] = [];
          const created: string[] = [];
          const titles: string[] = [];
          const dates: (string | null)[] = [];
          const chosen: (string | null)[] = [];
          const places: (string | null)[] = [];
          for (let i = 0; i < n; i += 1) {
            ids.push(newId());
            rankList.push(ranks[offset + i]!);
            created.push(new Date(created0 + (offset + i) * 1000).toISOString());
            titles.push(phrase(random, words, 2 + Math.floor(random() * 3)));
            dates.push(random() < 0.03 ? null : new Date(from + Math.floor(random() * span)).toISOString());
            chosen.push(random() < 0.03 ? null : JSON.stringify(options[Math.floor(random() * options.length)]));
            if (random() < 0.04) places.push(null);
            else if (random() < 0.7) {
              const town = towns[Math.floor(random() * towns.length)]!;
              // About a degree around the town (a sum of uniforms: roughly normal).
              const near = () => (random() + random() + random() - 1.5) * 1.2;
              places.push(JSON.stringify({ lat: Math.max(-90, Math.min(90, Math.round((town.lat + near()) * 1e4) / 1e4)), lng: Math.round((town.lng + near()) * 1e4) / 1e4 }));
            } else {
              places.push(JSON.stringify({ lat: Math.round((box.minLat + random() * (box.maxLat - box.minLat)) * 1e4) / 1e4, lng: Math.round((box.minLng + random() * (box.maxLng - box.minLng)) * 1e4) / 1e4 }));
            }
          }
          const p = (values: unknown[]) => sql.param(values);
          return database.db.execute(
            sql`insert into ${sql.identifier(table)} (_id, _rank, _created_date, _last_updated_date, ${id('title')}, ${id('when')}, ${id('stage')}, ${id('place')})
              select * from unnest(${p(ids)}::text[], ${p(rankList)}::text[], ${p(created)}::timestamptz[], ${p(created)}::timestamptz[], ${p(titles)}::text[],
                                   ${p(dates)}::timestamptz[], ${p(chosen)}::jsonb[], ${p(places)}::jsonb[])`,
          );
        },
        async (offset) => {
          await yieldToLoop();
          if ((offset / batch) % 40 === 0) log(`  ${offset} items loaded`);
        },
      );
    },
    { concurrency: database.kind === 'postgres' ? 2 : 1 },
  );
  await database.db.execute(sql`update content_collections set item_count = ${items} where id = ${collection.id}`);
  await run(`vacuum analyze ${table}`);
  const seedSeconds = (performance.now() - begin) / 1000;
  log(`  loaded ${items} items in ${seedSeconds.toFixed(1)} s (rows ${rowsSeconds.toFixed(1)} s, indexes ${indexSeconds.toFixed(1)} s)`);
  return { prefix, organizationID: org.id, projectID: project.id, seedSeconds, items };
}

/** What a kept database's seed made, read back (see --reuse). */
async function recoverSeed(app: App, database: Database) {
  await app.ctx.users.bootstrapAdmin();
  await database.db.execute(sql`delete from rate_limits`);
  const row = (await database.db.execute(
    sql`select c.item_count, p.id as project_id, p.organization_id from content_collections c join projects p on p.id = c.project_id where c.slug = 'places'`,
  )) as unknown as { rows: { item_count: number; project_id: string; organization_id: string }[] };
  const found = row.rows[0];
  if (!found) throw new Error('this database holds no layouts bench collection');
  const prefix = `/api/organization/${found.organization_id}/project/${found.project_id}`;
  return { prefix, organizationID: found.organization_id, projectID: found.project_id, seedSeconds: 0, items: Number(found.item_count) };
}

/**
 * What a layout's content is, as CSS selectors the page watches: each part is there when every
 * selector of it matches a rendered element (kanban: each column's first card).
 */
const parts: Record<LayoutName, Record<string, string[]>> = {
  calendar: { 'first event': ['.calendar-event'], 'first undated item': ['.calendar-unscheduled-item'] },
  kanban: {
    'a card in every column': [...stages.map((stage) => `.kanban-column[data-column="${stage}"] .kanban-card`), '.kanban-column[data-column="unset"] .kanban-card'],
    'first Unset card': ['.kanban-column[data-column="unset"] .kanban-card'],
  },
  map: { 'first marker': ['.map-layout-marker'], 'first Unset Markers entry': ['.map-layout-unset-item'] },
};

/**
 * Runs in the page before its scripts: on every DOM change, notes the parts now rendered, and
 * for each the time of the next animation frame (the frame that paints it). Text, not a function:
 * tsx would wrap a function's inner functions in a naming helper the page does not have.
 */
const watchParts = (wanted: Record<string, string[]>) => `(() => {
  const wanted = ${JSON.stringify(wanted)};
  const seen = {};
  window.__layoutPaint = seen;
  const rendered = (selector) => {
    const element = document.querySelector(selector);
    return element !== null && element.getClientRects().length > 0;
  };
  const check = () => {
    for (const [name, selectors] of Object.entries(wanted)) {
      if (name in seen || !selectors.every(rendered)) continue;
      seen[name] = -1;
      requestAnimationFrame((frame) => (seen[name] = frame));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
})();`;

interface LoadResult {
  paint: Record<string, number>;
  calls: string[];
}

async function loadOnce(context: BrowserContext, base: string, url: string, layout: LayoutName): Promise<LoadResult> {
  const page = await context.newPage();
  const calls: string[] = [];
  page.on('request', (request) => {
    const u = new URL(request.url());
    if (u.origin === base && /\/collection\/places\/item$/.test(u.pathname)) calls.push(u.pathname + u.search);
  });
  try {
    await page.addInitScript({ content: watchParts(parts[layout]) });
    await page.goto(url, { waitUntil: 'commit' });
    const names = Object.keys(parts[layout]);
    try {
      await page.waitForFunction((wanted) => {
        const seen = (window as unknown as { __layoutPaint?: Record<string, number> }).__layoutPaint;
        return seen !== undefined && wanted.every((name) => (seen[name] ?? -1) > 0);
      }, names, { timeout: Number(process.env.BENCH_LAYOUT_TIMEOUT_MS ?? 120_000), polling: 50 });
    } catch (error) {
      const shot = path.join(tmpdir(), `larder-bench-${layout}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      const seen = await page.evaluate(() => JSON.stringify((window as unknown as { __layoutPaint?: unknown }).__layoutPaint));
      throw new Error(`the ${layout} layout did not show ${names.join(', ')} at ${page.url()} (seen: ${seen}; screenshot ${shot})`, { cause: error });
    }
    const paint = await page.evaluate(() => (window as unknown as { __layoutPaint: Record<string, number> }).__layoutPaint);
    return { paint, calls };
  } finally {
    await page.close();
  }
}

async function measureLayout(
  browser: BrowserContext,
  base: string,
  token: string,
  prefix: string,
  listPath: string,
  layout: LayoutName,
  loads: number,
  log: (line: string) => void,
): Promise<LayoutFigure> {
  const settings = {
    layout,
    startKey: 'when',
    titleKeys: ['title'],
    activeField: layout === 'map' ? 'place' : 'stage',
    center: { ...mapCenter, zoom: 6 },
  };
  await call(base, token, 'PUT', `${prefix}/collection/places/layout`, settings);
  const url = `${base}${listPath}?layout=${layout}`;
  await loadOnce(browser, base, url, layout); // warm-up: the layout's chunk into the browser's cache
  const results: LoadResult[] = [];
  for (let i = 0; i < loads; i += 1) results.push(await loadOnce(browser, base, url, layout));
  const paint: LayoutFigure['paint'] = {};
  for (const name of Object.keys(parts[layout])) {
    const times = results.map((result) => result.paint[name]!);
    paint[name] = { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(Math.max(...times)) };
    log(`  ${layout.padEnd(8)} ${name.padEnd(26)} p50 ${String(paint[name].p50).padStart(8)} ms  p95 ${String(paint[name].p95).padStart(8)} ms  (navigation start → first frame showing it, ${loads} loads)`);
  }
  const calls: Record<string, CaseFigure> = {};
  for (const call of [...new Set(results.at(-1)!.calls)]) {
    calls[call] = await timeCase(base, token, call, 10);
    const shown = decodeURIComponent(call.slice(call.indexOf('?')));
    log(`    server: p50 ${String(calls[call].p50).padStart(8)} ms  p95 ${String(calls[call].p95).padStart(8)} ms  ${calls[call].rows} rows of ${calls[call].total ?? '?'}  ${shown}`);
  }
  return { paint, loads, calls };
}

async function runOne(kind: Kind, wanted: number, only: readonly LayoutName[], loads: number, keep: { keep: boolean; reuse?: string | undefined }, log: (line: string) => void): Promise<Figures> {
  log(keep.reuse ? `${kind}: reusing ${keep.reuse}` : `${kind}: ${wanted} items`);
  const { database, name, drop } = await openBenchDatabase(kind, keep, 'larder_bench_layouts');
  if (keep.keep) log(`  keeping the database ${name} (measure it again with --reuse ${name}; drop it when done)`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench@larder.test',
    ADMIN_PASSWORD: 'bench bench bench',
    DATA_DIR: tmpdir(),
    PUBLIC_URL: base,
  });
  const app = await buildApp({ config, database });
  let browser: Browser | undefined;
  try {
    await app.listen({ port, host: '127.0.0.1' });
    const seeded = keep.reuse ? await recoverSeed(app, database) : await seed(app, database, base, wanted, log);
    const { prefix, items, seedSeconds } = seeded;
    const token = await signInAdmin(base);
    const figures: Figures = { db: kind, items, seedSeconds: round(seedSeconds), layouts: {} };
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Username or e-mail').fill('bench@larder.test');
    await page.getByLabel('Password').fill('bench bench bench');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(new RegExp(`/organization/${seeded.organizationID}$`), { timeout: 60_000 });
    await page.close();
    const listPath = `/organization/${seeded.organizationID}/project/${seeded.projectID}/collection/places`;
    const loadAtStart = round(loadavg()[0]!);
    for (const layout of only) figures.layouts[layout] = await measureLayout(context, base, token, prefix, listPath, layout, loads, log);
    figures.loadAverage = [loadAtStart, round(loadavg()[0]!)];
    log(`  load average (1 min) at start and end: ${figures.loadAverage.join(', ')} on ${cpus().length} cores`);
    return figures;
  } finally {
    await browser?.close();
    await app.close();
    await database.close();
    await drop();
  }
}

export async function run(args: string[]): Promise<number> {
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const items = Number(flag('--items') ?? process.env.BENCH_ITEMS ?? 1_000_000);
  const kinds = (flag('--db') ?? 'postgres,pglite').split(',') as Kind[];
  const loads = Number(flag('--loads') ?? 10);
  const only = (flag('--only') ?? layoutNames.join(',')).split(',') as LayoutName[];
  for (const layout of only) if (!layoutNames.includes(layout)) throw new Error(`--only takes ${layoutNames.join(', ')}; not ${layout}`);
  const asJson = args.includes('--json');
  const keep = { keep: args.includes('--keep'), reuse: flag('--reuse') };
  if ((keep.keep || keep.reuse) && kinds.join() !== 'postgres') throw new Error('--keep and --reuse are for PostgreSQL: give --db postgres');
  const log = (line: string) => {
    if (!asJson) console.log(line);
  };
  if (!existsSync(path.join(consoleDir, 'index.html'))) {
    log('building the console (dist/console is missing)…');
    await buildConsole();
  }
  const results: Figures[] = [];
  for (const kind of kinds) results.push(await runOne(kind, items, only, loads, keep, log));
  if (asJson) console.log(JSON.stringify(results, null, 2));
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await run(process.argv.slice(2)));
}
