/**
 * Every setting the server reads from its environment, declared once: a TypeBox schema per
 * variable with its description, default and value type. `readSettings` parses an environment
 * with it, `server/config.ts` derives the app's `Config` from the result, and
 * `server/settings-docs.ts` writes the table in docs/configuration.md from it.
 */
import { Type, type StaticDecode, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import ipaddr from 'ipaddr.js';
import { defaultQueryTuning } from './content/query/tuning.ts';

export type Env = Record<string, string | undefined>;

export interface RateLimitRule {
  max: number;
  windowMs: number;
}

/** What the docs table shows of a setting besides its description (annotations on each schema). */
interface SettingDoc {
  description: string;
  /** The value type as the docs name it ("integer", "switch", …). */
  valueType: string;
  /** What a value must be, for the error that refuses it ("a non-negative integer"). */
  expect: string;
  /** The default as the docs show it, when it is not a fixed value (`http://localhost:$PORT`). */
  defaultText?: string;
}

type Doc = Pick<SettingDoc, 'description' | 'defaultText'>;

/** A string setting whose text is decoded by `decode`; `decode` throws to refuse a value. */
function decoded<T>(decode: (value: string) => T, encode: (value: T) => string, annotations: SettingDoc & { default?: string }) {
  return Type.Transform(Type.String(annotations)).Decode(decode).Encode(encode);
}

function refuse(): never {
  throw new Error('refused');
}

const integerPattern = /^\s*\d+\s*$/;

/** A non-negative integer. */
function count(fallback: number, doc: Doc) {
  return decoded((v) => (integerPattern.test(v) ? Number(v) : refuse()), String, { ...doc, default: String(fallback), valueType: 'integer', expect: 'a non-negative integer' });
}

/** A positive integer. */
function positive(fallback: number, doc: Doc) {
  return decoded((v) => (integerPattern.test(v) && Number(v) > 0 ? Number(v) : refuse()), String, { ...doc, default: String(fallback), valueType: 'integer', expect: 'a positive integer' });
}

/** Free text, with an optional default. */
function text(fallback: string | undefined, doc: Doc) {
  return Type.String({ ...doc, ...(fallback === undefined ? {} : { default: fallback }), valueType: 'text', expect: 'text' });
}

/** On unless `0`. */
function switchOn(doc: Doc) {
  return decoded((v) => v !== '0', (v) => (v ? '1' : '0'), { ...doc, default: '1', defaultText: doc.defaultText ?? 'on', valueType: 'switch (`0`: off)', expect: 'a switch' });
}

/** One of a few words (surrounding spaces ignored). */
function choice<const T extends string>(values: readonly T[], fallback: T, doc: Doc) {
  const list = values.map((v) => `\`${v}\``);
  const words = values.length === 2 ? values.join(' or ') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
  return decoded((v) => (values.includes(v.trim() as T) ? (v.trim() as T) : refuse()), (v: T) => v, { ...doc, default: fallback, valueType: list.join(' | '), expect: words });
}

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a rule written as `max/window`, e.g. `10/15m`. */
function parseRateLimit(value: string, name: string): RateLimitRule {
  const match = /^(\d+)\s*\/\s*(\d+)?\s*([smhd])$/.exec(value.trim());
  if (!match) throw new Error(`${name} must look like 10/15m (max per window), got "${value}"`);
  const windowMs = Number(match[2] ?? 1) * units[match[3]!]!;
  return { max: Number(match[1]), windowMs };
}

/** A rate limit `max/window` (window in s, m, h or d). */
function rateLimit(fallback: string, doc: Doc) {
  return decoded(
    (v) => parseRateLimit(v, 'rate limit'),
    (rule: RateLimitRule) => `${rule.max}/${rule.windowMs / 1000}s`,
    { ...doc, default: fallback, valueType: 'rate (`max/window`)', expect: 'like 10/15m (max per window)' },
  );
}

const durationUnits: Record<string, number> = { ms: 1, ...units };

/** A comma list of durations (`1m, 5m, 2h`; units ms, s, m, h, d), in milliseconds. */
function durations(fallback: string, doc: Doc) {
  const parse = (value: string) =>
    commaList(value).map((part) => {
      const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(part) ?? refuse();
      return Math.round(Number(match[1]) * durationUnits[match[2]!]!);
    });
  return decoded(parse, (list: number[]) => list.map((ms) => `${ms}ms`).join(','), { ...doc, default: fallback, valueType: 'durations', expect: 'a comma list of durations such as 1m,5m,2h' });
}

/** The non-empty items of a comma list, trimmed. */
function commaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A comma list of words. */
function words(doc: Doc) {
  return decoded(commaList, (list: string[]) => list.join(','), { ...doc, default: '', defaultText: '—', valueType: 'comma list', expect: 'a comma list' });
}

/** A comma list of address ranges (`127.0.0.0/8, ::1/128`; a bare address is one address). */
function addressRanges(doc: Doc) {
  const parse = (value: string) => {
    const ranges = commaList(value);
    for (const range of ranges) if (!(range.includes('/') ? ipaddr.isValidCIDR(range) : ipaddr.isValid(range))) refuse();
    return ranges;
  };
  return decoded(parse, (list: string[]) => list.join(','), { ...doc, default: '', defaultText: '—', valueType: 'address ranges', expect: 'a comma list of address ranges such as 127.0.0.0/8' });
}

/** An http(s) address; trailing slashes are dropped. */
function httpAddress(fallback: string, doc: Doc) {
  const parse = (value: string) => {
    const url = value.replace(/\/+$/, '');
    return /^https?:\/\/[^\s/]+/i.test(url) ? url : refuse();
  };
  return decoded(parse, (v: string) => v, { ...doc, default: fallback, valueType: 'URL', expect: 'an http(s) address' });
}

/**
 * The settings, by environment variable. An empty variable counts as unset. Settings whose
 * default depends on another (`PUBLIC_URL`, `FILES_DIR`, `S3_FORCE_PATH_STYLE`) have no default
 * here; `loadConfig` fills them in and `defaultText` says how.
 */
export const settingsSchema = Type.Object({
  PORT: count(8080, { description: 'the one port for the console and every service' }),
  SHUTDOWN_TIMEOUT_S: positive(25, {
    description:
      'on SIGTERM or SIGINT: how long the process may take to finish requests in flight and running jobs before it exits anyway (jobs cut short go back to the queue), in seconds',
  }),
  HOST: text('0.0.0.0', { description: 'the address to listen on' }),
  DATA_DIR: text('./data', { description: 'embedded database (PGlite) files; locked so a second process refuses to open them' }),
  DATABASE_URL: Type.Optional(text(undefined, { description: 'a PostgreSQL connection string; when set, PGlite is not used and `DATA_DIR` holds no database' })),
  PUBLIC_URL: Type.Optional(
    text(undefined, {
      defaultText: '`http://localhost:$PORT`',
      description: "the address people reach the console at; every link in a mail is built from it (never from the request's Host header)",
    }),
  ),
  SMTP_URL: Type.Optional(
    text(undefined, { description: 'e.g. `smtps://user:pass@mail.example.com:465`. Without it, mail is kept in the database (the outbox) and its link is printed to the log' }),
  ),
  MAIL_FROM: text('Larder <no-reply@larder.local>', { description: 'sender of every mail' }),
  SECRETS_KEY: Type.Optional(
    decoded((v) => (Buffer.from(v.trim(), 'base64').length === 32 ? Buffer.from(v.trim(), 'base64') : refuse()), (v: Buffer) => v.toString('base64'), {
      valueType: 'base64',
      expect: '32 bytes in base64 (`openssl rand -base64 32`)',
      defaultText: 'a key made at first start, kept in the database',
      description: "encrypts the secrets projects store (SMTP passwords, integration and function secrets); set, a database dump alone does not reveal them. Changing it makes the stored ones unreadable (enter them again)",
    }),
  ),
  MAIL_LOG_RETENTION_DAYS: positive(30, { description: "days a project's sent and failed mails stay in its delivery log (queued ones stay until delivered)" }),
  DEV_MAILBOX: switchOn({
    description: 'the Dev mailbox API (`/api/dev/mailbox`) is served only to loopback clients and only while the outbox is the transport; `DEV_MAILBOX=0` removes it entirely',
  }),
  ADMIN_EMAIL: Type.Optional(text(undefined, { description: 'at start, when no user has this e-mail, create a verified platform super-admin with it and `ADMIN_PASSWORD`' })),
  ADMIN_PASSWORD: Type.Optional(text(undefined, { description: 'the password of the super-admin `ADMIN_EMAIL` creates at start, and of `larder admin create` without `--password`' })),
  ADMIN_USERNAME: text('admin', { description: 'the username of the super-admin `ADMIN_EMAIL` creates' }),
  SUPER_ADMIN_USERNAMES: words({ description: 'usernames that count as admin in every organization, besides those in definitions/platform.ts' }),
  REFRESH_REUSE_GRACE_S: count(10, {
    description: 'a refresh token presented again within this many seconds of its first use returns the same new pair (two tabs refreshing at once); later, it ends the whole session',
  }),
  ACCESS_TOKEN_TTL_S: count(900, { description: 'lifetime of access tokens (JWT, EdDSA), in seconds' }),
  REFRESH_TOKEN_TTL_S: count(30 * 86_400, { description: 'a refresh token unused this many seconds expires (30 days)' }),
  RESET_TOKEN_TTL_S: count(3600, { description: 'lifetime of a password-reset link, in seconds' }),
  CONFIRMATION_TTL_S: count(7 * 86_400, { description: 'lifetime of an e-mail confirmation link, in seconds' }),
  CONSOLE_CLIENT_ID: text('larder-console', { description: 'the OAuth client the console signs in as; other clients are refused' }),
  CONSOLE_CLIENT_SECRET: text('larder-console', { description: "the console client's secret" }),
  GOOGLE_CLIENT_ID: Type.Optional(text(undefined, { description: 'turns on third-party sign-in: ID tokens must carry this audience' })),
  GOOGLE_JWKS_URL: text('https://www.googleapis.com/oauth2/v3/certs', { description: 'where the signing keys of third-party sign-in are (any OpenID Connect provider)' }),
  GOOGLE_ISSUER: text('https://accounts.google.com', { description: 'who must have issued a third-party ID token' }),
  RATE_LIMIT_LOGIN_ACCOUNT: rateLimit('10/15m', {
    description:
      "failed password sign-ins per account from addresses that have not signed in to it in the last 30 days; its owner's known addresses are never refused by it (window in `s`, `m`, `h` or `d`; docs/security.md)",
  }),
  RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS: rateLimit('5/15m', { description: 'failed password sign-ins per account from one client address' }),
  RATE_LIMIT_LOGIN_ADDRESS: rateLimit('50/15m', { description: 'sign-in attempts per client address (password and third-party)' }),
  RATE_LIMIT_RESET_ACCOUNT: rateLimit('5/1h', { description: 'reset-mail requests per e-mail address' }),
  RATE_LIMIT_RESET_ADDRESS: rateLimit('20/1h', { description: 'reset-mail requests per client address' }),
  RATE_LIMIT_SIGNUP_ADDRESS: rateLimit('20/1h', { description: 'sign-ups per client address' }),
  RATE_LIMIT_PREVIEW_USER: rateLimit('120/1m', { description: 'link previews and their images per signed-in user' }),
  RATE_LIMIT_MAIL_SEND_USER: rateLimit('20/1h', { description: "test mails and resends of the delivery log (a project's Mail) per signed-in member" }),
  RATE_LIMIT_MAIL_PREVIEW_USER: rateLimit('60/1m', { description: "template previews (a project's Mail) per signed-in member; the editor previews at most once per pause in typing" }),
  RATE_LIMIT_MAPS_USER: rateLimit('300/1m', {
    description: 'address searches and place lookups (`/api/maps`) per signed-in user (the editor searches at most once per 380 ms pause)',
  }),
  OUTBOUND_ALLOW_PRIVATE: addressRanges({
    description:
      '**development and tests only**: address ranges (`127.0.0.0/8,::1/128`; a bare address is one address) that requests to user-given URLs may reach although not public. Empty: only public addresses',
  }),
  INTEGRATION_RETRY_SCHEDULE: durations('30s,2m,10m,30m,2h,6h', {
    description: "delays before each retry of an integration's run (units `ms s m h d`); attempts = retries + 1",
  }),
  INTEGRATION_TIMEOUT_S: count(30, { description: "the deadline of one attempt of an integration's run (a message sent, a document batch, an export), in seconds" }),
  FUNCTION_MEMORY_MB: positive(64, { description: "the memory one run of a project's function may use (its heap's growth), in MB" }),
  FUNCTION_TIMEOUT_MS: positive(5000, { description: "the time one run of a project's function may take, its waits on the host included, in milliseconds" }),
  FUNCTION_CONCURRENCY_PER_PROJECT: positive(8, { description: "runs of a project's functions at once in one process; past that the HTTP trigger answers 429 function_busy" }),
  FUNCTION_LOG_RETENTION_DAYS: positive(14, { description: "days a function's invocation log keeps a run" }),
  FUNCTION_RETRY_SCHEDULE: durations('10s,1m,10m,1h', {
    description: "delays before each retry of a function's run on an item event or a schedule that failed (units `ms s m h d`); attempts = retries + 1",
  }),
  WEBHOOK_RETRY_SCHEDULE: durations('1m,5m,15m,1h,3h,6h,12h', {
    description: 'delays before each retry of a webhook delivery (units `ms s m h d`); attempts = retries + 1, each delay ±20 % jitter',
  }),
  WEBHOOK_TIMEOUT_S: count(10, { description: 'the deadline of one delivery attempt, connection and answer included, in seconds' }),
  WEBHOOK_DIRECT_MAX: count(200, { description: 'first attempts a process sends itself at most at once (right after the write); past that they wait in the job queue' }),
  WEBHOOK_DISABLE_AFTER: count(5, { description: 'a webhook whose deliveries used up every attempt this many times in a row is disabled (at least 1)' }),
  WEBHOOK_POLL_S: decoded((v) => (Number(v) >= 0.5 ? Number(v) : refuse()), String, {
    default: '2',
    valueType: 'seconds',
    expect: 'a number of seconds of at least 0.5',
    description: 'how often the delivery queue (pg-boss) looks for due attempts (at least 0.5)',
  }),
  WEBHOOK_SENDER: choice(['thread', 'process', 'inline'], 'process', {
    description:
      "where webhook requests are sent from: a child process (`process`, at priority `WEBHOOK_SENDER_NICE`), a worker thread (`thread`) or the server's own thread (`inline`)",
  }),
  WEBHOOK_SENDER_NICE: count(10, { description: "the sender process's priority (0–19): deliveries yield the CPU to serving requests" }),
  WEBHOOK_MAINTENANCE_S: count(60, { description: "how often the queue's maintenance runs, in seconds (at least 1): it re-runs an attempt whose process died mid-attempt" }),
  LIVE_STREAM_MAX_S: count(3600, {
    description: "a live stream ends with `stop` after this many seconds (and at its token's expiry); the client resumes with the request id and misses nothing",
  }),
  LIVE_EVENT_RETENTION_S: count(86_400, { description: 'how long item events are kept for live streams to resume from, in seconds' }),
  LIST_DEFERRED_JOIN_OFFSET: count(defaultQueryTuning.list.deferredJoinOffset, {
    description: "from this offset on, a page of a list is found by its items' ids first (a deferred join), so a deep page reads whole rows for that page only",
  }),
  LIST_ANCHOR_OFFSET: count(defaultQueryTuning.list.anchorOffset, {
    description: 'from this offset on, a page of a list sorted by a system key (rank, id, dates, order) starts from an anchor the process keeps instead of walking the index from the start',
  }),
  LIST_ANCHOR_STEP: positive(defaultQueryTuning.list.anchorStep, { description: 'every how many entries of such a list an anchor is kept: a deep page skips fewer entries than this' }),
  LIST_ANCHOR_LISTS: positive(defaultQueryTuning.list.anchorLists, {
    description: 'how many lists (collection, filter, sort) keep anchors in each server process; past it the least recently read loses them',
  }),
  LIST_PAGE_CACHE_MB: count(defaultQueryTuning.list.pageCacheBytes / 1024 / 1024, {
    description:
      'megabytes of list pages (with their totals) each server process keeps in memory and serves again until a write to their collection is heard; 0: none (docs/content-storage.md "Pages kept in memory")',
  }),
  FIELD_INDEXES: choice(['eager', 'lazy'], 'eager', {
    description:
      'when the indexes of a new field (and the system sort columns) are made: with the field (`eager`), or when a list first sorts, filters or searches by it (`lazy`, built in the background; unused ones dropped after `FIELD_INDEX_IDLE_DAYS`) (docs/content-storage.md "Indexes made when needed")',
  }),
  FIELD_INDEX_IDLE_DAYS: count(30, { description: 'with `FIELD_INDEXES=lazy`, days after which an index no list used is dropped (made again when needed)' }),
  SEARCH_WORD_TOKENS: count(defaultQueryTuning.searchWords.tokens, {
    description: "a search text held by more words of a field's vocabulary than this is searched through the trigram index instead of the word index",
  }),
  SEARCH_KEPT_TERMS: positive(defaultQueryTuning.keptSearch.termsPerCollection, {
    description:
      'searches and filters whose totals are kept per collection (a text no index serves, or conditions whose count was slow); each adds triggers to its writes, and a new one beyond this replaces the least recently used (docs/content-storage.md "Listing and searching items")',
  }),
  SEARCH_KEPT_SLOW_MS: count(defaultQueryTuning.keptSearch.slowTotalMs, {
    description: 'a filtered list whose page and count took longer than this, in milliseconds, has its total kept when the same conditions come again within 10 minutes; 0 turns this off',
  }),
  SEARCH_KEPT_LOCK_TIMEOUT_MS: positive(defaultQueryTuning.keptSearch.lockTimeoutMs, {
    description: "how long keeping a new search's total waits for its collection's writes in progress, in milliseconds; past it the search counts its rows as before",
  }),
  TRUST_PROXY: addressRanges({
    description:
      'address ranges of the reverse proxies in front of Larder (`10.0.0.0/8`); a request from one of them is taken to come from the address its `X-Forwarded-For` names (per-address limits, logs) and its `X-Forwarded-Proto`/`Host`. Empty: none, the socket address counts (docs/operations.md "Several processes")',
  }),
  METRICS_ALLOW: addressRanges({
    description:
      'address ranges (`10.0.0.0/8, ::1/128`; a bare address is one address) whose clients may read `/metrics` instead of loopback (empty: loopback only; set, name loopback too to keep it). Proxied requests (forwarding headers) never count as from an address (docs/monitoring.md)',
  }),
  METRICS_TOKEN: Type.Optional(text(undefined, { description: 'a secret: `/metrics` also answers any client sending `Authorization: Bearer <token>`; everyone else gets 404' })),
  LOG_LEVEL: text('info', { description: '`fatal` … `trace`, or `silent`' }),
  SERVE_CONSOLE: switchOn({ description: '`0` serves the services only (used by `npm run dev`)' }),
  FILES_STORAGE: choice(['local', 's3'], 'local', {
    description: 'where uploaded files live: `local` (a directory) or `s3` (an S3-compatible bucket, shared by every server process)',
  }),
  FILES_DIR: Type.Optional(text(undefined, { defaultText: '`$DATA_DIR/files`', description: 'the directory of `local` files' })),
  S3_BUCKET: Type.Optional(text(undefined, { description: 'the bucket (required with `FILES_STORAGE=s3`)' })),
  S3_ENDPOINT: Type.Optional(text(undefined, { defaultText: 'AWS', description: 'the address of an S3-compatible server (MinIO, Ceph, R2, …); unset means AWS' })),
  S3_REGION: text('us-east-1', { description: "the bucket's region" }),
  S3_ACCESS_KEY_ID: Type.Optional(
    text(undefined, { defaultText: "the AWS SDK's default chain", description: 'the key id; without it the SDK looks in its usual places (environment, profile, instance role)' }),
  ),
  S3_SECRET_ACCESS_KEY: Type.Optional(text(undefined, { defaultText: "the AWS SDK's default chain", description: 'the secret key, as `S3_ACCESS_KEY_ID`' })),
  S3_FORCE_PATH_STYLE: Type.Optional(
    decoded((v) => v !== '0', (v) => (v ? '1' : '0'), {
      defaultText: 'on with `S3_ENDPOINT`, else off',
      valueType: 'switch (`0`: off)',
      expect: 'a switch',
      description: '`http://host/bucket/key` addresses instead of `http://bucket.host/key`',
    }),
  ),
  S3_PREFIX: text('', { defaultText: '—', description: 'put before every key, so one bucket can serve several installations' }),
  FILES_SWEEP_INTERVAL_S: count(3600, {
    description: 'how often every stored file is checked for an owner that is gone, in seconds (the first check runs at start); `0` checks only after writes',
  }),
  FILES_PENDING_GRACE_S: count(900, { description: 'an upload whose item does not hold it after this many seconds is treated as abandoned' }),
  GEOCODER: choice(['gazetteer', 'nominatim'], 'gazetteer', {
    description: 'the address search of GeoPoint fields (`GET /api/maps`): `gazetteer` (built in, offline) or `nominatim`',
  }),
  GEOCODER_URL: httpAddress('https://nominatim.openstreetmap.org', {
    description: 'the Nominatim server with `GEOCODER=nominatim` (the public one allows about one request a second; run your own for more)',
  }),
  GEOCODER_TIMEOUT_MS: positive(5000, { description: 'how long a Nominatim call may take, in milliseconds, before the search answers 503' }),
  MAP_TILE_URL: Type.Optional(
    decoded((v) => (/^https?:\/\/[^\s/]+\/\S*$/i.test(v) && ['{z}', '{x}', '{y}'].every((part) => v.includes(part)) ? v : refuse()), (v: string) => v, {
      valueType: 'URL template',
      expect: 'an http(s) template with {z}, {x} and {y}',
      description:
        "a tile template (`https://tile.example.org/{z}/{x}/{y}.png`, `{s}` allowed) drawn under the console's maps instead of the offline world layer; the console's CSP then allows images from its origin",
    }),
  ),
  MAP_TILE_ATTRIBUTION: Type.Optional(text(undefined, { description: "the tiles' attribution, shown as text in the map's corner" })),
  BILLING: switchOn({
    description: 'billing (docs/billing.md): plans, card payments, billing runs, usage limits and billing status; `0` hides billing in the console and enforces nothing, for installations that do not sell',
  }),
  BILLING_PROVIDER: choice(['sandbox', 'stripe'], 'sandbox', {
    description: 'who charges cards: `sandbox` (built in, offline: Larder serves the card page itself and accepts only published test numbers) or `stripe`',
  }),
  STRIPE_SECRET_KEY: Type.Optional(text(undefined, { description: 'the Stripe secret key (required with `BILLING_PROVIDER=stripe`)' })),
  STRIPE_WEBHOOK_SECRET: Type.Optional(text(undefined, { description: "the signing secret of Stripe's webhook endpoint `/billing/providers/stripe/webhook` (required with `BILLING_PROVIDER=stripe`)" })),
  STRIPE_API_URL: Type.Optional(
    httpAddress('https://api.stripe.com', { description: "where the Stripe SDK sends its calls (tests point it at a loopback server that answers as Stripe's API does)" }),
  ),
  BILLING_SALES_EMAIL: Type.Optional(text(undefined, { defaultText: '`ADMIN_EMAIL`, else `MAIL_FROM`', description: 'where Contact Us requests are mailed' })),
  BILLING_STATUS_WINDOWS: text('0-2,3-14,15-30', {
    description: 'days since a failed charge of GRACE, NO_CLIENT (console restricted) and BLOCK (public API suspended), as three ranges `from-to`',
  }),
  BILLING_RUN_INTERVAL_S: positive(3600, { description: 'how often the billing run looks for organizations due to be charged (and failed charges to retry), in seconds' }),
  LARDER_PGLITE_NAMED: switchOn({ description: "PGlite runs repeated reads as named statements, parsed and planned once per process; `0` turns that off (to measure the difference)" }),
});

export type Settings = StaticDecode<typeof settingsSchema>;
export type SettingName = keyof Settings;

/** The annotations of one setting's schema. */
export function settingDoc(name: SettingName): SettingDoc & { default?: string } {
  return settingsSchema.properties[name] as unknown as SettingDoc & { default?: string };
}

/**
 * Parses `env` with the schema (every setting, or only `names`): an unset or empty variable takes
 * its default; a value the schema refuses throws `NAME must be …, got "value"`.
 */
export function readSettings<N extends SettingName = SettingName>(env: Env, names?: readonly N[]): Pick<Settings, N> {
  const result: Record<string, unknown> = {};
  for (const name of names ?? (Object.keys(settingsSchema.properties) as N[])) {
    const schema = settingsSchema.properties[name] as TSchema;
    const raw = env[name] || (schema.default as string | undefined);
    if (raw === undefined) continue;
    try {
      result[name] = Value.Decode(schema, raw);
    } catch {
      throw new Error(`${name} must be ${(schema as unknown as SettingDoc).expect}, got "${raw}"`);
    }
  }
  return result as Pick<Settings, N>;
}
