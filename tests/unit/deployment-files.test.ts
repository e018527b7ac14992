/**
 * The deployment files (Dockerfile, compose.yaml, deploy/) hold together with the code, since no
 * container engine runs them here (docs/operations.md "Deployment"): the image builds the console
 * and runs on production dependencies only as a user other than root; every variable the Larder
 * services set is a setting of server/settings.ts (so renaming a setting fails here) and the
 * configuration they make loads; the proxy names both processes at the port they listen on.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// yaml: a production dependency of @fastify/swagger, so always installed.
import { parse } from 'yaml';
import { loadConfig } from '../../server/config.ts';
import { settingsSchema } from '../../server/settings.ts';

const root = path.join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const packageJson = JSON.parse(read('package.json')) as { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** Variables an image or service may set that are not settings (docs/operations.md "Deployment"). */
const notSettings = new Set(['NODE_ENV']);
const settingNames = new Set(Object.keys(settingsSchema.properties));

// ---- Dockerfile ----

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** The Dockerfile's instructions by stage: continuation lines joined, comments dropped. */
function dockerStages(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [, keyword, rest] = /^(\w+)\s+(.*)$/.exec(trimmed) ?? [];
    if (!keyword) continue;
    const instruction = { keyword: keyword.toUpperCase(), args: rest!.replace(/\s+/g, ' ').trim() };
    if (instruction.keyword === 'FROM') {
      const [, from, name] = /^(\S+)(?: AS (\S+))?$/i.exec(instruction.args) ?? [];
      stages.push({ from: from!, name, instructions: [] });
    } else if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value] = instruction.args.split('=');
      args[name!] = value ?? '';
    } else stages.at(-1)?.instructions.push(instruction);
  }
  return { args, stages };
}

const docker = dockerStages(read('Dockerfile'));
const runtime = docker.stages.at(-1)!;
const stageNamed = (name: string) => docker.stages.find((stage) => stage.name === name);
const runsIn = (stage: Stage, pattern: RegExp) => stage.instructions.some((i) => i.keyword === 'RUN' && pattern.test(i.args));
/** `COPY --from=<stage> <source> <target>` of the runtime stage. */
const copiesFrom = (stage: Stage) =>
  runtime.instructions
    .filter((i) => i.keyword === 'COPY')
    .map((i) => /^--from=(\S+) (\S+) (\S+)$/.exec(i.args))
    .filter((match) => match?.[1] === stage.name)
    .map((match) => ({ source: match![2]!, target: match![3]! }));
/** `ENV` of a stage, as `KEY=value` pairs. */
const envOf = (stage: Stage) =>
  Object.fromEntries(
    stage.instructions
      .filter((i) => i.keyword === 'ENV')
      .flatMap((i) => [...i.args.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!])),
  );

/** The top-level folders the server's modules import from (relative imports only). */
function foldersTheServerImports(): Set<string> {
  const folders = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(ts|mjs)$/.test(name) && !name.includes('.test.')) {
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
          folders.add(path.relative(root, path.resolve(dir, specifier!)).split(path.sep)[0]!);
        }
      }
    }
  };
  walk(path.join(root, 'server'));
  walk(path.join(root, 'bin'));
  return folders;
}

describe('Dockerfile', () => {
  it('builds in stages from one Node 20 base', () => {
    expect(docker.stages.length).toBeGreaterThanOrEqual(2);
    const bases = new Set(docker.stages.map((stage) => stage.from.replace(/^\$\{?(\w+)\}?$/, (_, name: string) => docker.args[name] ?? name)));
    const named = new Set(docker.stages.map((stage) => stage.name));
    const images = [...bases].filter((base) => !named.has(base));
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^node:20(\.|-|$)/);
  });

  it('builds the console in a stage and copies only the built console into the runtime stage', () => {
    const build = docker.stages.find((stage) => runsIn(stage, /\bnpm (run build|run-script build)\b|\bvite build\b/));
    expect(build?.name).toBeDefined();
    expect(build).not.toBe(runtime);
    expect(packageJson.devDependencies.vite).toBeDefined();
    expect(copiesFrom(build!)).toEqual([{ source: '/app/dist/console', target: './dist/console' }]);
    // The server would rebuild a console older than its sources at start, with Vite, which the runtime lacks.
    expect(runsIn(runtime, /consoleIsStale/)).toBe(true);
  });

  it('runs on production dependencies only, installed from the lock file', () => {
    const deps = docker.stages.find((stage) => runsIn(stage, /\bnpm ci\b.*(--omit=dev|--omit dev|--production|--only=prod)/));
    expect(deps?.name).toBeDefined();
    expect(copiesFrom(deps!).map((copy) => copy.source)).toEqual(['/app/node_modules']);
    for (const stage of docker.stages.filter((s) => s !== deps && s !== runtime)) {
      expect(copiesFrom(stage).some((copy) => copy.source.includes('node_modules')), `node_modules from ${stage.name}`).toBe(false);
    }
    expect(runsIn(runtime, /\bnpm (ci|install)\b/)).toBe(false);
  });

  it('starts the server through tsx, a production dependency, without npm in between', () => {
    const cmd = runtime.instructions.filter((i) => i.keyword === 'CMD').at(-1);
    expect(JSON.parse(cmd!.args)).toEqual(['node', '--import', 'tsx', 'server/start.ts']);
    expect(packageJson.dependencies.tsx).toBeDefined();
    expect(packageJson.scripts.start).toBe('tsx server/start.ts');
  });

  it('copies every folder the server and the command line import from', () => {
    const copied = new Set(runtime.instructions.filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from')).flatMap((i) => i.args.split(' ').slice(0, -1)));
    const needed = [...foldersTheServerImports(), 'drizzle'];
    expect(needed).toEqual(expect.arrayContaining(['server', 'definitions']));
    for (const folder of needed) expect(copied, folder).toContain(folder);
  });

  it('keeps out of the build context nothing the image copies or the console build reads', () => {
    const ignored = new Set(read('.dockerignore').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#')));
    const copied = runtime.instructions.filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from')).flatMap((i) => i.args.split(' ').slice(0, -1));
    const consoleInputs = ['index.html', 'vite.config.ts', 'vite-plugin-form-validators.ts', 'vite-plugin-precompress.ts', 'src', 'renderers', 'machines', 'definitions'];
    expect([...copied, ...consoleInputs].filter((entry) => ignored.has(entry))).toEqual([]);
    expect(ignored).toContain('node_modules');
    expect(ignored).toContain('.env');
  });

  it('runs as a user other than root, with DATA_DIR a volume, the port exposed and a health check', () => {
    const users = runtime.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const env = envOf(runtime);
    for (const name of Object.keys(env)) expect(settingNames.has(name) || notSettings.has(name), name).toBe(true);
    const volumes = runtime.instructions.filter((i) => i.keyword === 'VOLUME').map((i) => i.args);
    expect(volumes).toContain(env.DATA_DIR);
    const exposed = runtime.instructions.filter((i) => i.keyword === 'EXPOSE').map((i) => i.args);
    expect(exposed).toEqual([env.PORT]);
    const health = runtime.instructions.find((i) => i.keyword === 'HEALTHCHECK');
    expect(health?.args).toContain('/api/health');
  });
});

// ---- compose.yaml ----

interface Service {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  expose?: string[];
  volumes?: string[];
  stop_grace_period?: string;
}
const composeText = read('compose.yaml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;

/** Compose's interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?message}` and `$$`. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)(?:(:-|:\?)([^}]*))?\}/g, (whole, name: string | undefined, operator: string | undefined, rest: string | undefined) => {
    if (whole === '$$') return '$';
    const set = env[name!];
    if (set) return set;
    if (operator === ':?') throw new Error(`${name} is required: ${rest}`);
    return operator === ':-' ? rest! : '';
  });
}

/** deploy/env.example as an environment, its empty secrets filled with sample values. */
function sampleEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of read('deploy/env.example').split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line);
    if (match) env[match[1]!] = match[2]!;
  }
  return { ...env, POSTGRES_PASSWORD: 'b5c0ffee', SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'), MINIO_ROOT_PASSWORD: 'minio-sample-password' };
}

const builtFromHere = Object.entries(services).filter(([, service]) => service.build !== undefined);
/** The Larder server processes: services of this repository's image that run its own command. */
const larders = builtFromHere.filter(([, service]) => service.command === undefined);
const environmentOf = (service: Service, env = sampleEnv()) => Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), env)]));
const portOf = (service: Service) => environmentOf(service).PORT ?? envOf(runtime).PORT;
const dependsOn = (service: Service) => (Array.isArray(service.depends_on) ? Object.fromEntries(service.depends_on.map((name) => [name, { condition: 'service_started' }])) : (service.depends_on ?? {}));

describe('compose.yaml', () => {
  it('runs two Larder processes, PostgreSQL, an S3-compatible store and a proxy', () => {
    expect(larders.map(([name]) => name)).toHaveLength(2);
    expect(services.postgres?.image).toMatch(/^postgres:16/);
    expect(services.minio?.image).toMatch(/^minio\/minio/);
    expect(services.proxy?.image).toMatch(/^caddy:2/);
  });

  it('sets only settings of server/settings.ts in the services of the Larder image', () => {
    for (const [name, service] of builtFromHere) {
      const unknown = Object.keys(service.environment ?? {}).filter((variable) => !settingNames.has(variable) && !notSettings.has(variable));
      expect(unknown, name).toEqual([]);
    }
  });

  it('sets what several processes need, and the configuration loads', () => {
    for (const [name, service] of larders) {
      const env = environmentOf(service);
      const config = loadConfig(env);
      // One PostgreSQL for every process (PGlite locks its directory to one), files in the shared bucket.
      expect(config.databaseUrl, name).toMatch(/^postgres:\/\//);
      expect(config.files.kind, name).toBe('s3');
      expect(config.publicUrl, name).toMatch(/^https:\/\//);
      expect(config.secretsKey, name).toBeDefined();
      expect(config.devMailbox, name).toBe(false);
    }
    // Both processes alike: one configuration behind one address.
    const [first, second] = larders.map(([, service]) => environmentOf(service));
    expect(second).toEqual(first);
  });

  it('needs every secret from the .env file, and deploy/env.example lists every variable it reads', () => {
    const listed = new Set(Object.keys(sampleEnv()));
    const used = new Set([...composeText.matchAll(/\$\{(\w+)/g)].map((match) => match[1]!));
    expect([...used].filter((name) => !listed.has(name))).toEqual([]);
    for (const secret of ['POSTGRES_PASSWORD', 'SECRETS_KEY', 'MINIO_ROOT_PASSWORD', 'LARDER_DOMAIN']) {
      expect(composeText).toContain(`\${${secret}:?set ${secret}}`);
      expect(() => environmentOf(larders[0]![1], { ...sampleEnv(), [secret]: '' })).toThrow(secret);
    }
    for (const [, service] of builtFromHere) {
      for (const name of ['DATABASE_URL', 'SECRETS_KEY', 'S3_SECRET_ACCESS_KEY', 'ADMIN_PASSWORD', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'SMTP_URL']) {
        const raw = service.environment?.[name];
        if (raw !== undefined) expect(raw, name).toContain('${');
      }
    }
  });

  it('points the Larder processes at the database and store services it runs', () => {
    const env = environmentOf(larders[0]![1]);
    const database = new URL(env.DATABASE_URL!);
    const postgres = environmentOf(services.postgres!);
    expect(database.hostname).toBe('postgres');
    expect(database.port).toBe('5432');
    expect(database.username).toBe(postgres.POSTGRES_USER);
    expect(database.password).toBe(postgres.POSTGRES_PASSWORD);
    expect(database.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    expect(new URL(env.S3_ENDPOINT!).hostname).toBe('minio');
    const minio = environmentOf(services.minio!);
    expect([env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY]).toEqual([minio.MINIO_ROOT_USER, minio.MINIO_ROOT_PASSWORD]);
    // The one-shot bucket service makes the bucket the processes use, on the same store.
    const bucket = services.bucket!;
    expect(environmentOf(bucket).S3_BUCKET).toBe(env.S3_BUCKET);
    expect(String(bucket.command)).toContain(`${new URL(env.S3_ENDPOINT!).origin}`);
    expect(String(bucket.command)).toMatch(/mc mb --ignore-existing/);
  });

  it('starts the processes after the database is healthy, the bucket made and the migrations applied', () => {
    const migrate = builtFromHere.find(([, service]) => service.command !== undefined && String(service.command).includes('migrate'));
    expect(migrate).toBeDefined();
    expect(dependsOn(migrate![1]).postgres?.condition).toBe('service_healthy');
    expect(Object.keys(environmentOf(migrate![1]))).toEqual(expect.arrayContaining(['DATABASE_URL']));
    expect(environmentOf(migrate![1]).DATABASE_URL).toBe(environmentOf(larders[0]![1]).DATABASE_URL);
    for (const [name, service] of larders) {
      expect(dependsOn(service), name).toMatchObject({
        postgres: { condition: 'service_healthy' },
        bucket: { condition: 'service_completed_successfully' },
        [migrate![0]]: { condition: 'service_completed_successfully' },
      });
    }
    expect((services.postgres as { healthcheck?: unknown }).healthcheck).toBeDefined();
    expect(services.postgres!.volumes?.some((volume) => volume.endsWith(':/var/lib/postgresql/data'))).toBe(true);
  });

  it("gives each process its own DATA_DIR volume and more time to stop than the server's shutdown deadline", () => {
    const dataDir = envOf(runtime).DATA_DIR!;
    const volumes = larders.map(([, service]) => service.volumes?.find((volume) => volume.endsWith(`:${dataDir}`))?.split(':')[0]);
    expect(volumes.every((volume) => volume && volume in compose.volumes)).toBe(true);
    expect(new Set(volumes).size).toBe(larders.length);
    const shutdownSeconds = Number((settingsSchema.properties as Record<string, { default?: string }>).SHUTDOWN_TIMEOUT_S?.default ?? 10);
    for (const [name, service] of larders) {
      const grace = /^(\d+)s$/.exec(service.stop_grace_period ?? '');
      expect(Number(grace?.[1] ?? 10), name).toBeGreaterThan(shutdownSeconds);
    }
  });
});

describe('deploy/Caddyfile', () => {
  const proxy = services.proxy!;
  const mount = proxy.volumes?.find((volume) => volume.endsWith(':/etc/caddy/Caddyfile:ro'));
  const caddyfile = read(mount!.split(':')[0]!);

  it('balances both Larder processes, at the port each listens on and exposes', () => {
    const upstreams = /reverse_proxy\s+([^{\n]+)\{/.exec(caddyfile)?.[1]!.trim().split(/\s+/);
    const expected = larders.map(([name, service]) => `${name}:${portOf(service)}`);
    expect(upstreams?.sort()).toEqual(expected.sort());
    for (const [name, service] of larders) expect(service.expose, name).toEqual([portOf(service)]);
    expect(dependsOn(proxy)).toMatchObject(Object.fromEntries(larders.map(([name]) => [name, expect.anything()])));
  });

  it('checks health on /api/health, passes live streams on unbuffered, and serves the domain PUBLIC_URL names', () => {
    expect(caddyfile).toMatch(/health_uri \/api\/health/);
    expect(caddyfile).toMatch(/flush_interval -1/);
    expect(caddyfile).toMatch(/^\{\$LARDER_DOMAIN\} \{/m);
    const domain = environmentOf(proxy).LARDER_DOMAIN;
    expect(loadConfig(environmentOf(larders[0]![1])).publicUrl).toBe(`https://${domain}`);
  });
});
