/**
 * Does `POST /auth/resetPasswordEmail` take longer for a registered address than for an unknown
 * one? (docs/security.md, "Reset mail"), in process:
 *
 *   npm run bench -- reset-timing                          # PGlite, 100 pairs
 *   npm run bench -- reset-timing --db postgres --pairs 200
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   (the server to use; the default)
 *
 * Each pair asks once for the registered address and once for an unknown one, in random order;
 * between requests the work a request left running in the background (if the server has any) is
 * waited for, so each answer is timed alone. Prints both medians and the two-sided Mann–Whitney U
 * p-value (normal approximation with tie correction): a small p says the times tell the two apart.
 */
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openBenchDatabase, type Kind } from './list.ts';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The standard normal CDF (Abramowitz–Stegun 7.1.26 through erf). */
function normalCdf(z: number) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Two-sided Mann–Whitney U test of samples a and b: U of a and the p-value. */
export function mannWhitney(a: number[], b: number[]) {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]!.v === all[i]!.v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  const n1 = a.length;
  const n2 = b.length;
  const n = n1 + n2;
  const r1 = all.reduce((sum, item, i) => (item.g === 0 ? sum + ranks[i]! : sum), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = sd === 0 ? 0 : (Math.abs(u - mean) - 0.5) / sd;
  return { u, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))) };
}

export async function run(args: string[]): Promise<number> {
  const option = (name: string, fallback: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
  };
  const kind = option('db', 'pglite') as Kind;
  const pairs = Number(option('pairs', '100'));
  const { database, drop } = await openBenchDatabase(kind, { keep: false }, 'larder_bench_reset');
  const config = loadConfig({
    SERVE_CONSOLE: '0',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://larder.bench',
    RATE_LIMIT_RESET_ACCOUNT: '1000000/1m',
    RATE_LIMIT_RESET_ADDRESS: '1000000/1m',
    RATE_LIMIT_SIGNUP_ADDRESS: '1000000/1m',
  });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  try {
    const known = 'registered.person@example.com';
    const created = await app.inject({ method: 'POST', url: '/api/user', payload: { username: 'registered', email: known, password: 'correct horse battery' } });
    if (created.statusCode !== 201) throw new Error(`sign-up: ${created.statusCode} ${created.body}`);
    // Whatever the server leaves running after answering (absent before answers came first).
    const background = (app.ctx as { background?: { settled(): Promise<void> } }).background;
    const timed = async (email: string) => {
      const start = performance.now();
      const response = await app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email } });
      const ms = performance.now() - start;
      if (response.statusCode !== 200) throw new Error(`reset mail: ${response.statusCode} ${response.body}`);
      await background?.settled();
      return ms;
    };
    for (let i = 0; i < 20; i++) await timed(i % 2 ? known : `warm${i}@example.com`);
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < pairs; i++) {
      const order = Math.random() < 0.5 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      for (const which of order) times[which].push(await timed(which === 'known' ? known : `nobody${i}@example.com`));
    }
    const { u, p } = mannWhitney(times.known, times.unknown);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    console.log(
      JSON.stringify({
        db: kind,
        pairs,
        backgroundWork: Boolean(background),
        medianKnownMs: round(median(times.known)),
        medianUnknownMs: round(median(times.unknown)),
        mannWhitneyU: u,
        p: Number(p.toPrecision(3)),
      }),
    );
    return 0;
  } finally {
    await app.close();
    await database.close();
    await drop();
  }
}
