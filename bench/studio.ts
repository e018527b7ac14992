/**
 * Studio's generated OpenAPI document (docs/studio.md "Performance"), in process:
 *
 *   npm run bench -- studio                      # PGlite then PostgreSQL (take flock /tmp/larder-bench.lock)
 *   npm run bench -- studio --db pglite --runs 50   (50 is the default)
 *   npm run bench -- studio --json
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * A project of 50 collections × 30 fields (every creatable type in turn, a nested level of 5
 * fields in each collection). Measured, `--runs` times each:
 * 1. fresh builds over HTTP: `GET /api/public/openapi.json` with the document cache emptied
 *    before each (the collections read, the document built and serialised, the answer sent);
 * 2. fresh builds in process (the same without HTTP); target p95 ≤ 50 ms;
 * 3. the builder alone (buildDocument and JSON.stringify on collections in memory);
 * 4. answers from the cache: the HTTP call again.
 */
import { tmpdir } from 'node:os';
import { creatableFieldTypes, fieldTypes } from '../definitions/field-types/index.ts';
import { buildApp, type App } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { studioDocuments } from '../server/studio/documents.ts';
import { resolvePrincipal } from '../server/public/principal.ts';
import { buildDocument } from '../server/studio/openapi.ts';
import { publicSurface } from '../server/studio/surface.ts';
import type { SchemaField } from '../definitions/field-types/index.ts';
import { openBenchDatabase, type Kind } from './list.ts';

const collectionCount = 50;
const fieldCount = 30;
const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (n: number) => Math.round(n * 100) / 100;

async function inject(app: App, token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const response = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} → ${response.statusCode} ${response.body.slice(0, 300)}`);
  return response;
}

/** 30 fields: the creatable types in turn (ItemRef to the first collection, Option with choices), one nested level of 5. */
function schemaOf(i: number) {
  const plain = creatableFieldTypes.filter((type) => type.name !== 'NestedCollection' && type.name !== 'ItemRef');
  const fields: Record<string, unknown>[] = [{ name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true }];
  if (i > 0) fields.push({ name: 'Link', slug: 'link', type: code('ItemRef'), referenceCollectionID: 'c0' });
  for (let n = 0; fields.length < fieldCount - 1; n++) {
    const type = plain[n % plain.length]!;
    const field: Record<string, unknown> = { name: `${type.name} ${n}`, slug: `f${n}`, type: type.code };
    if (type.name === 'Option') field.options = [{ _id: 'a', value: 'A' }, { _id: 'b', value: 'B' }];
    fields.push(field);
  }
  fields.push({
    name: 'Lines',
    slug: 'lines',
    type: code('NestedCollection'),
    nestedCollectionSchema: Array.from({ length: 5 }, (_v, n) => ({ name: `Line ${n}`, slug: `l${n}`, type: plain[n % plain.length]!.code, ...(plain[n % plain.length]!.name === 'Option' ? { options: [{ _id: 'a', value: 'A' }] } : {}) })),
  });
  return fields;
}

async function runOne(kind: Kind, runs: number, log: (line: string) => void) {
  log(`${kind}:`);
  const { database, drop } = await openBenchDatabase(kind, { keep: false }, 'larder_bench_studio');
  const config = loadConfig({ SERVE_CONSOLE: '0', LOG_LEVEL: 'warn', ADMIN_EMAIL: 'bench@larder.test', ADMIN_PASSWORD: 'bench bench bench', DATA_DIR: tmpdir() });
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.ctx.users.bootstrapAdmin();
    const grant = await app.inject({
      method: 'POST',
      url: '/auth/token',
      payload: { grant_type: 'password', username: 'bench@larder.test', password: 'bench bench bench', client_id: 'larder-console', client_secret: 'larder-console' },
    });
    const token = (JSON.parse(grant.body) as { access_token: string }).access_token;
    const org = JSON.parse((await inject(app, token, 'POST', '/api/organization', { name: 'Bench' })).body) as { id: string };
    const project = JSON.parse((await inject(app, token, 'POST', `/api/organization/${org.id}/project`, { name: 'Bench' })).body) as { id: string };
    const base = `/api/organization/${org.id}/project/${project.id}`;
    const made = performance.now();
    for (let i = 0; i < collectionCount; i++) await inject(app, token, 'POST', `${base}/collection`, { id: `c${i}`, name: `Collection ${i}`, schema: schemaOf(i) });
    log(`  ${collectionCount} collections × ${fieldCount} fields made in ${round((performance.now() - made) / 1000)} s`);
    const apiToken = (
      JSON.parse((await inject(app, token, 'POST', '/api/apiTokens', { name: 'bench', projectID: project.id, organizationID: org.id, userAdmin: true, powerRead: true, powerWrite: true })).body) as {
        jwtToken: string;
      }
    ).jwtToken;
    const documents = studioDocuments(app);
    const fetchDocument = async () => {
      const start = performance.now();
      const response = await inject(app, apiToken, 'GET', '/api/public/openapi.json');
      return { ms: performance.now() - start, bytes: response.rawPayload.length };
    };
    // Warm-up: statement caches, the route table's surface, the JIT.
    for (let i = 0; i < 5; i++) {
      documents.clear();
      await fetchDocument();
    }
    const fresh: number[] = [];
    // This process's CPU time per fresh build: what the wall time costs when other work loads the machine.
    const freshCpu: number[] = [];
    let bytes = 0;
    const builds = documents.builds;
    for (let i = 0; i < runs; i++) {
      documents.clear();
      const cpu = process.cpuUsage();
      const answer = await fetchDocument();
      const used = process.cpuUsage(cpu);
      freshCpu.push((used.user + used.system) / 1000);
      fresh.push(answer.ms);
      bytes = answer.bytes;
    }
    if (documents.builds - builds !== runs) throw new Error(`expected ${runs} fresh builds, saw ${documents.builds - builds}`);
    // The build itself, in process: the collections read, the document built and serialised (no HTTP).
    const principal = await resolvePrincipal(app, apiToken);
    const built: number[] = [];
    for (let i = 0; i < runs; i++) {
      documents.clear();
      const start = performance.now();
      await documents.forPrincipal(principal);
      built.push(performance.now() - start);
    }
    const cached: number[] = [];
    const hits = documents.hits;
    for (let i = 0; i < runs; i++) cached.push((await fetchDocument()).ms);
    if (documents.hits - hits !== runs) throw new Error(`expected ${runs} answers from the cache, saw ${documents.hits - hits}`);

    // The builder alone, on the collections in memory.
    const rows = await app.ctx.collections.list(project.id);
    const collections = rows.map((c) => ({ slug: c.slug, name: c.name, schema: c.schema as SchemaField[] }));
    const all = { read: true, create: true, update: true, delete: true };
    const scope = { collections: new Map(collections.map((c) => [c.slug, all])), userAdmin: true, assets: true, caller: 'the bench' };
    const surface = publicSurface(app);
    const builder: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      JSON.stringify(buildDocument({ project: { id: project.id, name: 'Bench', description: '' }, collections, scope, surface, publicUrl: config.publicUrl }));
      builder.push(performance.now() - start);
    }
    const line = (label: string, values: number[]) => `  ${label}: p50 ${round(percentile(values, 50))} ms, p95 ${round(percentile(values, 95))} ms, max ${round(Math.max(...values))} ms`;
    log(`  document: ${round(bytes / 1024)} KiB`);
    log(line('fresh builds (collections read, built, serialised; in process)', built));
    log(line('fresh builds over GET /api/public/openapi.json (cache emptied)', fresh));
    log(line('  their CPU time in this process (PGlite: the database included)', freshCpu));
    log(line('builder alone (build + serialise)', builder));
    log(line('from the cache', cached));
    log(`  target: fresh builds p95 ≤ 50 ms: ${percentile(built, 95) <= 50 ? 'met' : 'NOT met'} (over HTTP: ${percentile(fresh, 95) <= 50 ? 'met' : 'NOT met'})`);
    return {
      database: kind,
      collections: collectionCount,
      fields: fieldCount,
      documentKiB: round(bytes / 1024),
      builtP50Ms: round(percentile(built, 50)),
      builtP95Ms: round(percentile(built, 95)),
      freshP50Ms: round(percentile(fresh, 50)),
      freshP95Ms: round(percentile(fresh, 95)),
      freshCpuP50Ms: round(percentile(freshCpu, 50)),
      builderP50Ms: round(percentile(builder, 50)),
      builderP95Ms: round(percentile(builder, 95)),
      cachedP50Ms: round(percentile(cached, 50)),
      cachedP95Ms: round(percentile(cached, 95)),
    };
  } finally {
    await app.close();
    await database.close();
    await drop();
  }
}

export async function run(args: string[]): Promise<number> {
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const kinds: Kind[] = option('db') ? [option('db') as Kind] : ['pglite', 'postgres'];
  const runs = Number(option('runs') ?? 50);
  const asJson = args.includes('--json');
  const log = (line: string) => (asJson ? undefined : console.log(line));
  const results = [];
  for (const kind of kinds) results.push(await runOne(kind, runs, log));
  if (asJson) console.log(JSON.stringify(results, null, 2));
  return results.every((r) => r.builtP95Ms <= 50) ? 0 : 1;
}
