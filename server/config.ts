/**
 * The app's configuration, derived once at start from the settings schema (server/settings.ts),
 * which parses the environment and documents every variable (docs/configuration.md). This is the
 * only module that reads `process.env`.
 */
import path from 'node:path';
import { defaultCsvLimits, type CsvLimits } from './content/csv-limits.ts';
import type { FilesConfig } from './files/storage.ts';
import { loadMapsConfig, type MapsConfig } from './maps/geocoder.ts';
import { queryTuning, type QueryTuning } from './content/query/tuning.ts';
import { readSettings, type Env, type RateLimitRule, type Settings } from './settings.ts';
import type { WebhookDeliveryConfig } from './webhooks/delivery.ts';
import type { StatusWindows } from '../definitions/billing/status.ts';

export type { RateLimitRule } from './settings.ts';

export interface Config {
  port: number;
  /** SIGTERM/SIGINT: the deadline of a clean close (docs/operations.md "Stopping"). */
  shutdownTimeoutMs: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  devMailbox: boolean;
  /** SECRETS_KEY: the key of the secrets projects store (server/lib/secrets.ts); unset: one kept in the database. */
  secretsKey: Buffer | undefined;
  /** Days a project's sent and failed mails stay in its delivery log (docs/mail.md). */
  mailLogRetentionDays: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  adminUsername: string;
  /** Usernames that count as admin in every organization, besides definitions/platform.ts. */
  superAdminUsernames: string[];
  refreshReuseGraceS: number;
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  resetTokenTtlS: number;
  confirmationTtlS: number;
  consoleClient: { id: string; secret: string };
  google: { clientId: string; jwksUrl: string; issuer: string } | undefined;
  rateLimits: {
    /** Failed sign-ins per account from addresses it has not signed in from (server/auth/login-limits.ts). */
    loginAccount: RateLimitRule;
    /** Failed sign-ins per (account, client address) pair. */
    loginAccountAddress: RateLimitRule;
    loginAddress: RateLimitRule;
    resetAccount: RateLimitRule;
    resetAddress: RateLimitRule;
    signupAddress: RateLimitRule;
    /** Link previews and their images per signed-in user. */
    previewUser: RateLimitRule;
    /** Address searches and place lookups (`/api/maps`) per signed-in user. */
    mapsUser: RateLimitRule;
    /** Test mails and resends (a project's Mail) per signed-in member. */
    mailSendUser: RateLimitRule;
    /** Template previews (a project's Mail) per signed-in member. */
    mailPreviewUser: RateLimitRule;
  };
  serveConsole: boolean;
  logLevel: string;
  /** A live stream ends with `stop` (the client reconnects and resumes) after this many seconds. */
  liveStreamMaxS: number;
  /** How long content events are kept for live replay, in seconds. */
  liveEventRetentionS: number;
  /** Where uploaded files are kept: a directory (default `DATA_DIR/files`) or an S3-compatible bucket. */
  files: FilesConfig;
  /** How often every file is checked for an owner that is gone (seconds; 0: only after writes). */
  filesSweepIntervalS: number;
  /** An upload not yet in its item after this many seconds is treated as abandoned. */
  filesPendingGraceS: number;
  /** Ranges (CIDR) the URL guard lets outbound requests reach although not public: development and tests only (docs/security.md "Outbound requests"). */
  outboundAllowPrivate: string[];
  /** The address search's geocoder and the console's map tiles (docs/field-types.md "Places and maps"). */
  maps: MapsConfig;
  /** Webhook deliveries (docs/webhooks.md). */
  webhooks: WebhookDeliveryConfig;
  /** Integration runs (docs/integrations.md "Runs"). */
  integrations: { retryDelaysMs: number[]; timeoutMs: number };
  /** Functions (docs/functions.md): a run's limits, runs at once per project, the log's retention. */
  functions: { memoryBytes: number; timeoutMs: number; concurrencyPerProject: number; logRetentionDays: number; retryDelaysMs: number[] };
  /** Who may read `/metrics` besides loopback-by-default: METRICS_ALLOW ranges (empty: loopback) and the METRICS_TOKEN bearer (docs/monitoring.md). */
  metrics: { allow: string[]; token: string | undefined };
  /** TRUST_PROXY: the reverse proxies whose forwarding headers are believed (none: the socket address counts). */
  trustProxy: string[];
  /** Whether PGlite runs repeated reads as named statements (`LARDER_PGLITE_NAMED`). */
  pgliteNamedStatements: boolean;
  /** CSV export batches: not settings, this app's own copy of the defaults (server/content/csv-limits.ts). */
  csv: CsvLimits;
  /** List reads and searches: the `LIST_…` and `SEARCH_…` settings, the rest defaults (server/content/query/tuning.ts); tests change them on their app. */
  /** When field indexes are made, and when unused ones go (server/content/field-indexes.ts). */
  fieldIndexes: { mode: 'eager' | 'lazy'; idleDays: number; sweepMs: number };
  listQueries: QueryTuning;
  /** Billing (docs/billing.md); `enabled: false` (BILLING=0) hides it and enforces nothing. */
  billing: BillingConfig;
}

export interface BillingConfig {
  enabled: boolean;
  provider: 'sandbox' | 'stripe';
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string } | undefined;
  salesEmail: string;
  statusWindows: StatusWindows;
  runIntervalS: number;
}

/** Builds the app's configuration from `env` through the settings schema (server/settings.ts). */
export function loadConfig(env: Env = process.env): Config {
  const s = readSettings(env);
  const dataDir = path.resolve(s.DATA_DIR);
  return {
    port: s.PORT,
    host: s.HOST,
    dataDir,
    shutdownTimeoutMs: s.SHUTDOWN_TIMEOUT_S * 1000,
    databaseUrl: s.DATABASE_URL,
    publicUrl: (s.PUBLIC_URL ?? `http://localhost:${s.PORT}`).replace(/\/+$/, ''),
    smtpUrl: s.SMTP_URL,
    mailFrom: s.MAIL_FROM,
    devMailbox: s.DEV_MAILBOX,
    secretsKey: s.SECRETS_KEY,
    mailLogRetentionDays: s.MAIL_LOG_RETENTION_DAYS,
    adminEmail: s.ADMIN_EMAIL,
    adminPassword: s.ADMIN_PASSWORD,
    adminUsername: s.ADMIN_USERNAME,
    superAdminUsernames: s.SUPER_ADMIN_USERNAMES,
    refreshReuseGraceS: s.REFRESH_REUSE_GRACE_S,
    accessTokenTtlS: s.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlS: s.REFRESH_TOKEN_TTL_S,
    resetTokenTtlS: s.RESET_TOKEN_TTL_S,
    confirmationTtlS: s.CONFIRMATION_TTL_S,
    consoleClient: { id: s.CONSOLE_CLIENT_ID, secret: s.CONSOLE_CLIENT_SECRET },
    google: s.GOOGLE_CLIENT_ID ? { clientId: s.GOOGLE_CLIENT_ID, jwksUrl: s.GOOGLE_JWKS_URL, issuer: s.GOOGLE_ISSUER } : undefined,
    rateLimits: {
      loginAccount: s.RATE_LIMIT_LOGIN_ACCOUNT,
      loginAccountAddress: s.RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS,
      loginAddress: s.RATE_LIMIT_LOGIN_ADDRESS,
      resetAccount: s.RATE_LIMIT_RESET_ACCOUNT,
      resetAddress: s.RATE_LIMIT_RESET_ADDRESS,
      signupAddress: s.RATE_LIMIT_SIGNUP_ADDRESS,
      previewUser: s.RATE_LIMIT_PREVIEW_USER,
      mapsUser: s.RATE_LIMIT_MAPS_USER,
      mailSendUser: s.RATE_LIMIT_MAIL_SEND_USER,
      mailPreviewUser: s.RATE_LIMIT_MAIL_PREVIEW_USER,
    },
    serveConsole: s.SERVE_CONSOLE,
    logLevel: s.LOG_LEVEL,
    liveStreamMaxS: s.LIVE_STREAM_MAX_S,
    liveEventRetentionS: s.LIVE_EVENT_RETENTION_S,
    files: filesConfig(s, dataDir),
    filesSweepIntervalS: s.FILES_SWEEP_INTERVAL_S,
    filesPendingGraceS: s.FILES_PENDING_GRACE_S,
    outboundAllowPrivate: s.OUTBOUND_ALLOW_PRIVATE,
    maps: loadMapsConfig(env),
    webhooks: webhooksConfig(s),
    integrations: { retryDelaysMs: s.INTEGRATION_RETRY_SCHEDULE, timeoutMs: s.INTEGRATION_TIMEOUT_S * 1000 },
    functions: {
      memoryBytes: s.FUNCTION_MEMORY_MB * 1024 * 1024,
      timeoutMs: s.FUNCTION_TIMEOUT_MS,
      concurrencyPerProject: s.FUNCTION_CONCURRENCY_PER_PROJECT,
      retryDelaysMs: s.FUNCTION_RETRY_SCHEDULE,
      logRetentionDays: s.FUNCTION_LOG_RETENTION_DAYS,
    },
    metrics: { allow: s.METRICS_ALLOW, token: s.METRICS_TOKEN },
    trustProxy: s.TRUST_PROXY,
    pgliteNamedStatements: s.LARDER_PGLITE_NAMED,
    csv: { ...defaultCsvLimits },
    fieldIndexes: { mode: s.FIELD_INDEXES, idleDays: s.FIELD_INDEX_IDLE_DAYS, sweepMs: 3600_000 },
    listQueries: queryTuning({
      list: { deferredJoinOffset: s.LIST_DEFERRED_JOIN_OFFSET, anchorOffset: s.LIST_ANCHOR_OFFSET, anchorStep: s.LIST_ANCHOR_STEP, anchorLists: s.LIST_ANCHOR_LISTS, pageCacheBytes: s.LIST_PAGE_CACHE_MB * 1024 * 1024 },
      keptSearch: { termsPerCollection: s.SEARCH_KEPT_TERMS, lockTimeoutMs: s.SEARCH_KEPT_LOCK_TIMEOUT_MS, slowTotalMs: s.SEARCH_KEPT_SLOW_MS },
      searchWords: { tokens: s.SEARCH_WORD_TOKENS },
    }),
    billing: billingConfig(s),
  };
}

function billingConfig(s: Settings): BillingConfig {
  if (s.BILLING_PROVIDER === 'stripe' && (!s.STRIPE_SECRET_KEY || !s.STRIPE_WEBHOOK_SECRET)) {
    throw new Error('BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  return {
    enabled: s.BILLING,
    provider: s.BILLING_PROVIDER,
    stripe:
      s.BILLING_PROVIDER === 'stripe'
        ? { secretKey: s.STRIPE_SECRET_KEY!, webhookSecret: s.STRIPE_WEBHOOK_SECRET!, apiUrl: s.STRIPE_API_URL ?? 'https://api.stripe.com' }
        : undefined,
    salesEmail: s.BILLING_SALES_EMAIL ?? s.ADMIN_EMAIL ?? s.MAIL_FROM,
    statusWindows: parseStatusWindows(s.BILLING_STATUS_WINDOWS),
    runIntervalS: s.BILLING_RUN_INTERVAL_S,
  };
}

/** `0-2,3-14,15-30` as the three windows, each in order and after the one before. */
export function parseStatusWindows(value: string): StatusWindows {
  const ranges = value.split(',').map((part) => /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(part));
  const ok = ranges.length === 3 && ranges.every((m, i) => m && Number(m[1]) <= Number(m[2]) && (i === 0 || Number(m[1]) > Number(ranges[i - 1]![2])));
  if (!ok) throw new Error(`BILLING_STATUS_WINDOWS must be three ascending day ranges like 0-2,3-14,15-30, got "${value}"`);
  const [grace, noClient, block] = ranges.map((m) => ({ from: Number(m![1]), to: Number(m![2]) }));
  return { GRACE: grace!, NO_CLIENT: noClient!, BLOCK: block! };
}

/** The environment of a server this process starts (`npm run dev`): its own, with `overrides` on top. */
export function serverEnvironment(overrides: Env): Env {
  return { ...process.env, ...overrides };
}

/** Webhook retries: 8 attempts over about 22 hours by default. */
function webhooksConfig(s: Settings): WebhookDeliveryConfig {
  return {
    retryDelaysMs: s.WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: s.WEBHOOK_TIMEOUT_S * 1000,
    disableAfter: Math.max(1, s.WEBHOOK_DISABLE_AFTER),
    relayIntervalMs: 5000,
    pollingIntervalS: s.WEBHOOK_POLL_S,
    maintenanceIntervalS: Math.max(1, s.WEBHOOK_MAINTENANCE_S),
    sender: s.WEBHOOK_SENDER,
    senderNice: Math.min(19, Math.max(0, s.WEBHOOK_SENDER_NICE)),
    directAttempts: s.WEBHOOK_DIRECT_MAX,
  };
}

function filesConfig(s: Settings, dataDir: string): FilesConfig {
  if (s.FILES_STORAGE === 'local') return { kind: 'local', dir: path.resolve(s.FILES_DIR ?? path.join(dataDir, 'files')) };
  if (!s.S3_BUCKET) throw new Error('FILES_STORAGE=s3 needs S3_BUCKET');
  const prefix = s.S3_PREFIX.replace(/^\/+/, '');
  return {
    kind: 's3',
    endpoint: s.S3_ENDPOINT,
    bucket: s.S3_BUCKET,
    region: s.S3_REGION,
    accessKeyId: s.S3_ACCESS_KEY_ID,
    secretAccessKey: s.S3_SECRET_ACCESS_KEY,
    // S3-compatible servers at an endpoint mostly want path-style addresses; AWS itself the virtual-host style.
    forcePathStyle: s.S3_FORCE_PATH_STYLE ?? s.S3_ENDPOINT !== undefined,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
}
