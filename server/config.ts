/**
 * Configuration from the environment, read once at start. Every variable is documented in the README.
 */
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import type { FilesConfig } from './files/storage.ts';
import { loadMapsConfig, type MapsConfig } from './maps/geocoder.ts';
import type { WebhookDeliveryConfig } from './webhooks/delivery.ts';

export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  devMailbox: boolean;
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
}

type Env = Record<string, string | undefined>;

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A comma list of durations (`1m, 5m, 2h`; units ms, s, m, h, d), in milliseconds. */
function durationList(env: Env, name: string, fallback: string): number[] {
  return (env[name] || fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((part) => {
      const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(part);
      if (!match) throw new Error(`${name} must be a comma list of durations such as 1m,5m,2h, got "${part}"`);
      return Math.round(Number(match[1]) * durationUnits[match[2]!]!);
    });
}

/** Webhook retries: 8 attempts over about 22 hours by default. */
function webhooksConfig(env: Env): WebhookDeliveryConfig {
  const polling = Number(env.WEBHOOK_POLL_S || '2');
  if (!(polling >= 0.5)) throw new Error(`WEBHOOK_POLL_S must be a number of seconds of at least 0.5, got "${env.WEBHOOK_POLL_S}"`);
  return {
    retryDelaysMs: durationList(env, 'WEBHOOK_RETRY_SCHEDULE', '1m,5m,15m,1h,3h,6h,12h'),
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_S', 10) * 1000,
    disableAfter: Math.max(1, integer(env, 'WEBHOOK_DISABLE_AFTER', 5)),
    relayIntervalMs: 5000,
    pollingIntervalS: polling,
    maintenanceIntervalS: Math.max(1, integer(env, 'WEBHOOK_MAINTENANCE_S', 60)),
    sender: webhookSender(env.WEBHOOK_SENDER),
    senderNice: Math.min(19, Math.max(0, integer(env, 'WEBHOOK_SENDER_NICE', 10))),
    directAttempts: Math.max(0, integer(env, 'WEBHOOK_DIRECT_MAX', 200)),
  };
}

function webhookSender(raw: string | undefined): WebhookDeliveryConfig['sender'] {
  const value = (raw || 'process').trim();
  if (value !== 'thread' && value !== 'process' && value !== 'inline') throw new Error(`WEBHOOK_SENDER must be thread, process or inline, got "${raw}"`);
  return value;
}

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a rule written as `max/window`, e.g. `10/15m`. */
export function parseRateLimit(value: string, name: string): RateLimitRule {
  const match = /^(\d+)\s*\/\s*(\d+)?\s*([smhd])$/.exec(value.trim());
  if (!match) throw new Error(`${name} must look like 10/15m (max per window), got "${value}"`);
  const windowMs = Number(match[2] ?? 1) * units[match[3]!]!;
  return { max: Number(match[1]), windowMs };
}

function integer(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function filesConfig(env: Env, dataDir: string): FilesConfig {
  const kind = env.FILES_STORAGE || 'local';
  if (kind === 'local') return { kind, dir: path.resolve(env.FILES_DIR || path.join(dataDir, 'files')) };
  if (kind !== 's3') throw new Error(`FILES_STORAGE must be local or s3, got "${kind}"`);
  if (!env.S3_BUCKET) throw new Error('FILES_STORAGE=s3 needs S3_BUCKET');
  const endpoint = env.S3_ENDPOINT || undefined;
  const prefix = (env.S3_PREFIX || '').replace(/^\/+/, '');
  return {
    kind,
    endpoint,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    // S3-compatible servers at an endpoint mostly want path-style addresses; AWS itself the virtual-host style.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE !== '0' : endpoint !== undefined,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
}

/** A comma list of address ranges (`127.0.0.0/8, ::1/128`; a bare address is one address). */
function cidrList(env: Env, name: string): string[] {
  const ranges = (env[name] || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const range of ranges) {
    const ok = range.includes('/') ? ipaddr.isValidCIDR(range) : ipaddr.isValid(range);
    if (!ok) throw new Error(`${name} must be a comma list of address ranges such as 127.0.0.0/8, got "${range}"`);
  }
  return ranges;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const rule = (name: string, fallback: string) => parseRateLimit(env[name] || fallback, name);
  const googleClientId = env.GOOGLE_CLIENT_ID;
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Larder <no-reply@larder.local>',
    devMailbox: env.DEV_MAILBOX !== '0',
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    superAdminUsernames: (env.SUPER_ADMIN_USERNAMES || '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    refreshReuseGraceS: integer(env, 'REFRESH_REUSE_GRACE_S', 10),
    accessTokenTtlS: integer(env, 'ACCESS_TOKEN_TTL_S', 900),
    refreshTokenTtlS: integer(env, 'REFRESH_TOKEN_TTL_S', 30 * 86_400),
    resetTokenTtlS: integer(env, 'RESET_TOKEN_TTL_S', 3600),
    confirmationTtlS: integer(env, 'CONFIRMATION_TTL_S', 7 * 86_400),
    consoleClient: { id: env.CONSOLE_CLIENT_ID || 'larder-console', secret: env.CONSOLE_CLIENT_SECRET || 'larder-console' },
    google: googleClientId
      ? {
          clientId: googleClientId,
          jwksUrl: env.GOOGLE_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs',
          issuer: env.GOOGLE_ISSUER || 'https://accounts.google.com',
        }
      : undefined,
    rateLimits: {
      loginAccount: rule('RATE_LIMIT_LOGIN_ACCOUNT', '10/15m'),
      loginAccountAddress: rule('RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS', '5/15m'),
      loginAddress: rule('RATE_LIMIT_LOGIN_ADDRESS', '50/15m'),
      resetAccount: rule('RATE_LIMIT_RESET_ACCOUNT', '5/1h'),
      resetAddress: rule('RATE_LIMIT_RESET_ADDRESS', '20/1h'),
      signupAddress: rule('RATE_LIMIT_SIGNUP_ADDRESS', '20/1h'),
      previewUser: rule('RATE_LIMIT_PREVIEW_USER', '120/1m'),
      mapsUser: rule('RATE_LIMIT_MAPS_USER', '300/1m'),
    },
    serveConsole: env.SERVE_CONSOLE !== '0',
    logLevel: env.LOG_LEVEL || 'info',
    liveStreamMaxS: integer(env, 'LIVE_STREAM_MAX_S', 3600),
    liveEventRetentionS: integer(env, 'LIVE_EVENT_RETENTION_S', 86_400),
    files: filesConfig(env, dataDir),
    filesSweepIntervalS: integer(env, 'FILES_SWEEP_INTERVAL_S', 3600),
    filesPendingGraceS: integer(env, 'FILES_PENDING_GRACE_S', 900),
    outboundAllowPrivate: cidrList(env, 'OUTBOUND_ALLOW_PRIVATE'),
    maps: loadMapsConfig(env),
    webhooks: webhooksConfig(env),
  };
}
