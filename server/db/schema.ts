/**
 * Platform tables. Ids are 24-character hex strings (the shape BagelDB clients expect for `_id`).
 * Secrets (refresh tokens, reset tokens, confirmation ids) are stored only as SHA-256 hashes.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const created = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Server-wide settings kept in the database so every process agrees: signing keys, secrets. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  createdAt: created(),
});

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    verified: boolean('verified').notNull().default(false),
    superAdmin: boolean('super_admin').notNull().default(false),
    googleSubject: text('google_subject'),
    questionnaire: jsonb('questionnaire'),
    questionnaireAt: ts('questionnaire_at'),
    createdAt: created(),
    lastLoggedIn: ts('last_logged_in'),
    passwordChangedAt: ts('password_changed_at'),
    /** Set by a super-admin (docs/admin.md "Users"): no sign-in, sessions and live streams end. */
    disabledAt: ts('disabled_at'),
  },
  (t) => [
    uniqueIndex('users_email_lower').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('users_google_subject').on(t.googleSubject),
  ],
);

/** E-mail confirmation: the id in the mail is secret; only its hash is kept. */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: created(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('email_confirmations_user').on(t.userId)],
);

/** A sign-in session: one family of rotating refresh tokens. Revoking it kills every token of the family. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    createdAt: created(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/**
 * One refresh token of a session. `issuedAt`/`jti` are the claims of the access token handed out
 * with it, so that a grace-window replay re-signs the very same JWT (Ed25519 is deterministic).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    issuedAt: integer('issued_at').notNull(),
    jti: text('jti').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    successorHash: text('successor_hash'),
    createdAt: created(),
  },
  (t) => [index('refresh_tokens_session').on(t.sessionId)],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: created(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_resets_user').on(t.userId)],
);

/** A mail's attachment as the outbox keeps it. */
export interface MailAttachmentRow {
  filename: string;
  contentType: string;
  /** base64 */
  content: string;
}

/**
 * Every mail the product sends. With the outbox transport (no SMTP_URL) a mail is only kept here
 * (`kept`) for the Dev mailbox; with SMTP it is `pending` until the delivery worker has handed it
 * to the server (`sent`) or given up (`failed`), so a mail survives a restart or an SMTP outage.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    link: text('link'),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['kept', 'pending', 'sent', 'failed'] }).notNull().default('kept'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    sentAt: ts('sent_at'),
    lastError: text('last_error'),
    createdAt: created(),
    /** Files the mail carries (migration 0026: the invoice PDF), content in base64. */
    attachments: jsonb('attachments').$type<MailAttachmentRow[]>(),
    /** The project whose app user the mail is for (migration 0030: its delivery log); null: a platform mail. */
    projectId: text('project_id'),
    /** The project mail template that made it (definitions/mail.ts). */
    template: text('template'),
    replyTo: text('reply_to'),
    /** 'project': through the project's own SMTP server; null: the installation's transport. */
    via: text('via', { enum: ['project'] }),
    /** The end of a worker's claim on the mail (migration 0030); null when no worker holds it. */
    claimedUntil: ts('claimed_until'),
    /** The request that made the mail (migration 0037), named in its delivery's log lines; null: made by a job. */
    requestId: text('request_id'),
  },
  (t) => [index('outbox_created').on(t.createdAt), index('outbox_due').on(t.status, t.nextAttemptAt)],
);

export const organizations = pgTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: created(),
});

export const memberships = pgTable(
  'memberships',
  {
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    permissions: jsonb('permissions').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index('memberships_user').on(t.userId)],
);

/** An invitation to an organization; its id is the link in the invite mail. */
export const invites = pgTable(
  'invites',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    permissions: jsonb('permissions').notNull(),
    createdAt: created(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
  },
  (t) => [index('invites_email_lower').on(sql`lower(${t.email})`)],
);

/** Fixed-window rate-limit counters, shared by every process of a deployment. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: ts('reset_at').notNull(),
  },
  (t) => [index('rate_limits_reset').on(t.resetAt)],
);

/**
 * The organization's billing account (migration 0024, docs/billing.md): seats, plan (null: the plan
 * flagged `free`), address, currency (1 NIS, 2 USD), frequency (1 monthly, 2 yearly), credit and
 * add-ons in minor units, billing dates, the masked card and the first failed charge's date.
 */
export const billingAccounts = pgTable('billing_accounts', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  seats: integer('seats').notNull(),
  createdAt: created(),
  planId: text('plan_id'),
  pendingPlanId: text('pending_plan_id'),
  billingEmail: text('billing_email'),
  address: text('address').notNull().default(''),
  city: text('city').notNull().default(''),
  country: text('country').notNull().default('US'),
  postcode: text('postcode').notNull().default(''),
  currency: smallint('currency').notNull().default(2),
  frequency: smallint('frequency').notNull().default(1),
  addOns: jsonb('add_ons').$type<{ title: string; amount: number; nisAmount: number }[]>().notNull().default([]),
  creditUsd: bigint('credit_usd', { mode: 'number' }).notNull().default(0),
  creditNis: bigint('credit_nis', { mode: 'number' }).notNull().default(0),
  billingDay: smallint('billing_day'),
  nextBillingDate: date('next_billing_date', { mode: 'string' }),
  lastBillingDate: date('last_billing_date', { mode: 'string' }),
  cardProvider: text('card_provider'),
  cardCustomer: text('card_customer'),
  cardToken: text('card_token'),
  cardLast4: text('card_last4'),
  cardBrand: text('card_brand'),
  initialBillingFailedDate: ts('initial_billing_failed_date'),
  /** The last usage month (`YYYY-MM`) whose overage has been charged. */
  overageBilledThrough: text('overage_billed_through'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * What a charge's success changes on the account, applied in the transaction that records it
 * (server/billing/accounts.ts `applyChargeEffect`). Absent keys change nothing; `planId: null` is the free plan.
 */
export interface ChargeEffect {
  planId?: string | null;
  clearPendingPlan?: true;
  seats?: number;
  billingDay?: number | null;
  nextBillingDate?: string | null;
  lastBillingDate?: string | null;
  overageBilledThrough?: string;
  creditUsedUsd?: number;
  creditUsedNis?: number;
}

/** A line of a charge or invoice: a name and an amount in minor units (overage lines name their metric). */
export interface BillingLine {
  name: string;
  usageName?: string;
  amount: number;
}

/** One charge: per organization and period (`period`), or a plan or seat change (`upgrade`, `seats`). Kept after the organization. */
export const billingCharges = pgTable('billing_charges', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id').notNull(),
  kind: text('kind').$type<'period' | 'upgrade' | 'seats'>().notNull(),
  periodStart: date('period_start', { mode: 'string' }).notNull(),
  periodEnd: date('period_end', { mode: 'string' }).notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  currency: smallint('currency').notNull(),
  lineItems: jsonb('line_items').$type<BillingLine[]>().notNull(),
  effect: jsonb('effect').$type<ChargeEffect>().notNull().default({}),
  subtotal: bigint('subtotal', { mode: 'number' }).notNull(),
  creditApplied: bigint('credit_applied', { mode: 'number' }).notNull().default(0),
  tax: bigint('tax', { mode: 'number' }).notNull(),
  total: bigint('total', { mode: 'number' }).notNull(),
  status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
  provider: text('provider'),
  providerChargeId: text('provider_charge_id'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  createdAt: created(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  settledAt: ts('settled_at'),
  /** The plan and tax rule names the charge was priced with (migration 0026), for its invoice. */
  planName: text('plan_name').notNull().default(''),
  taxName: text('tax_name'),
});

/** The invoice of a successful charge, frozen at the charge; its PDF is rendered from this row. */
export const billingInvoices = pgTable('billing_invoices', {
  id: text('id').primaryKey(),
  chargeId: text('charge_id').notNull().unique(),
  organizationId: text('organization_id').notNull(),
  invoiceNumber: text('invoice_number').notNull().unique(),
  issuedAt: ts('issued_at').notNull().defaultNow(),
  planName: text('plan_name').notNull(),
  organizationName: text('organization_name').notNull(),
  billingEmail: text('billing_email'),
  billingAddress: jsonb('billing_address').$type<{ address: string; city: string; country: string; postcode: string }>().notNull(),
  currency: smallint('currency').notNull(),
  lineItems: jsonb('line_items').$type<BillingLine[]>().notNull(),
  taxName: text('tax_name'),
  tax: bigint('tax', { mode: 'number' }).notNull(),
  total: bigint('total', { mode: 'number' }).notNull(),
  cardLast4: text('card_last4'),
  mailedAt: ts('mailed_at'),
});

/** A card-setup session (the framed page); completed once, for its own organization only. */
export const billingCardSessions = pgTable('billing_card_sessions', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  planId: text('plan_id'),
  provider: text('provider').notNull(),
  providerSessionId: text('provider_session_id'),
  status: text('status').$type<'open' | 'completed' | 'declined' | 'expired'>().notNull().default('open'),
  createdBy: text('created_by').notNull(),
  createdAt: created(),
  expiresAt: ts('expires_at').notNull(),
  completedAt: ts('completed_at'),
});

/** Provider callbacks already handled (a replay has no effect). */
export const billingProviderEvents = pgTable(
  'billing_provider_events',
  { provider: text('provider').notNull(), eventId: text('event_id').notNull(), receivedAt: ts('received_at').notNull().defaultNow() },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

export const contactRequests = pgTable('contact_requests', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
  userId: text('user_id'),
  name: text('name').notNull(),
  email: text('email').notNull(),
  number: text('number').notNull(),
  createdAt: created(),
  mailedAt: ts('mailed_at'),
});

/** The sandbox card provider's saved cards (last four digits and the test number's behaviour, never the number). */
export const sandboxCards = pgTable('sandbox_cards', {
  token: text('token').primaryKey(),
  last4: text('last4').notNull(),
  brand: text('brand').notNull(),
  behaviour: text('behaviour').$type<'succeed' | 'decline' | 'fail_later'>().notNull(),
  createdAt: created(),
});

/** The sandbox provider's charges by idempotency key: asking twice with one key charges once. */
export const sandboxCharges = pgTable('sandbox_charges', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  id: text('id').notNull().unique(),
  token: text('token').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  currency: text('currency').notNull(),
  status: text('status').$type<'succeeded' | 'declined'>().notNull(),
  createdAt: created(),
});

/**
 * An organization's usage per UTC month (`YYYY-MM`), one row per metric (server/usage/usage.ts):
 * counters are summed by batched upserts from every process, peaks and recorded levels keep the greatest.
 */
export const usageCounters = pgTable(
  'usage_counters',
  {
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    metric: text('metric').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month, t.metric] })],
);

/**
 * App live streams open now per server process and organization, with the process's heartbeat
 * (server/usage/usage.ts): SimultaneousLive is the sum over the processes heard from lately.
 */
export const usageLiveProcesses = pgTable(
  'usage_live_processes',
  {
    processId: text('process_id').notNull(),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    open: integer('open').notNull(),
    heartbeatAt: ts('heartbeat_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.processId, t.organizationId] }), index('usage_live_processes_organization').on(t.organizationId, t.heartbeatAt)],
);

export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Project settings, e.g. `restrictedView`: collections only some users see (a hidden-collections rule as data). */
    settings: jsonb('settings').notNull().default({}),
    createdAt: created(),
  },
  (t) => [index('projects_organization').on(t.organizationId)],
);

/** API tokens of a project. The token itself (a JWT shown once) is kept only as a hash. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    userAdmin: boolean('user_admin').notNull().default(false),
    userGroupId: text('user_group_id'),
    powerCreate: boolean('power_create').notNull().default(false),
    powerRead: boolean('power_read').notNull().default(false),
    powerUpdate: boolean('power_update').notNull().default(false),
    powerDelete: boolean('power_delete').notNull().default(false),
    powerWrite: boolean('power_write').notNull().default(false),
    roles: jsonb('roles').notNull().default([]),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** A Studio token's end (migration 0030; docs/studio.md): refused after it. Null: never expires. */
    expiresAt: ts('expires_at'),
    /** The member a Studio token was minted for; such tokens are never listed with the project's. */
    temporaryFor: text('temporary_for').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('api_tokens_project').on(t.projectId),
    uniqueIndex('api_tokens_hash').on(t.tokenHash),
    index('api_tokens_temporary_for').on(t.temporaryFor).where(sql`temporary_for is not null`),
  ],
);

/**
 * A collection of a project. `slug` is the collection ID people see; `id` names
 * its storage: items live in their own table `content_<id>`, each nested-collection field in a
 * child table `content_<fieldId>` (server/content/storage.ts). `storageTables` lists them all so
 * that deleting the row (directly or by a project's or organization's cascade) drops them, by
 * trigger. `itemCount` is kept in the same transaction as every insert and delete, so the
 * unfiltered total is one row read.
 */
export const contentCollections = pgTable(
  'content_collections',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    singleItem: boolean('single_item').notNull().default(false),
    rtlDirection: boolean('rtl_direction').notNull().default(false),
    schema: jsonb('schema').notNull(),
    storageTables: text('storage_tables').array().notNull(),
    itemCount: bigint('item_count', { mode: 'number' }).notNull().default(0),
    /** Layout settings per nested path ('' top level): server/content/layout-routes.ts. */
    layouts: jsonb('layouts').notNull().default({}),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('content_collections_project_slug').on(t.projectId, t.slug)],
);

/**
 * Every item write, kept in the transaction that made it (a transactional outbox): live streams
 * are told of each one by NOTIFY at commit and replay from here after a reconnect; webhooks
 * deliver from here. `nestedPath` is '' for a top-level item, else the nestedID of the list the
 * item is in (`chapters`, `chapters.<id>.verses`), with `rootItemId` the top-level item.
 */
export const contentEvents = pgTable(
  'item_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id').notNull().references(() => contentCollections.id, { onDelete: 'cascade' }),
    trigger: text('trigger').notNull(),
    itemId: text('item_id').notNull(),
    rootItemId: text('root_item_id'),
    nestedPath: text('nested_path').notNull().default(''),
    item: jsonb('item').notNull(),
    createdAt: created(),
  },
  (t) => [index('item_events_collection').on(t.collectionId, t.id), index('item_events_created').on(t.createdAt)],
);

/**
 * Where a live stream that was told to stop left off, by the request id its `start` event gave:
 * the reconnecting stream replays what came after. `seen` lists the recent events already sent,
 * so that a write that committed late (with a lower id) is still delivered once.
 */
export const liveRequests = pgTable(
  'live_requests',
  {
    requestId: text('request_id').primaryKey(),
    collectionId: text('collection_id').notNull().references(() => contentCollections.id, { onDelete: 'cascade' }),
    cursor: bigint('cursor', { mode: 'number' }).notNull(),
    seen: bigint('seen', { mode: 'number' }).array().notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('live_requests_updated').on(t.updatedAt)],
);

/**
 * Project users: the end users of apps built on a project (Bagel Auth), signed in through
 * `/auth/public`. `userGroups` holds ids of the project's user groups (server/main/user-groups.ts).
 */
export const projectUsers = pgTable(
  'project_users',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email'),
    phone: text('phone'),
    passwordHash: text('password_hash'),
    verified: boolean('verified').notNull().default(false),
    userGroups: text('user_groups').array().notNull().default(sql`'{}'`),
    createdAt: created(),
    lastLoggedIn: ts('last_logged_in'),
    passwordChangedAt: ts('password_changed_at'),
  },
  (t) => [
    uniqueIndex('project_users_email').on(t.projectId, t.email).where(sql`email IS NOT NULL`),
    uniqueIndex('project_users_phone').on(t.projectId, t.phone).where(sql`phone IS NOT NULL`),
    index('project_users_created').on(t.projectId, t.createdAt, t.id),
  ],
);

/** A project user's session; `apiTokenId` is the API token the sign-in came with (its group goes to users signed up under it). */
export const projectUserSessions = pgTable(
  'project_user_sessions',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => projectUsers.id, { onDelete: 'cascade' }),
    apiTokenId: text('api_token_id'),
    createdAt: created(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('project_user_sessions_user').on(t.userId)],
);

/** Rotated refresh tokens of project-user sessions, as `refreshTokens` for the console. */
export const projectUserRefreshTokens = pgTable(
  'project_user_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: text('session_id').notNull().references(() => projectUserSessions.id, { onDelete: 'cascade' }),
    issuedAt: integer('issued_at').notNull(),
    jti: text('jti').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    successorHash: text('successor_hash'),
    createdAt: created(),
  },
  (t) => [index('project_user_refresh_tokens_session').on(t.sessionId)],
);

/** One-time codes sent by e-mail or SMS: the nonce is the client's handle, the code is kept hashed. */
export const projectUserOtps = pgTable(
  'project_user_otps',
  {
    nonce: text('nonce').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'phone'] }).notNull(),
    target: text('target').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    resends: integer('resends').notNull().default(0),
    apiTokenId: text('api_token_id'),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: created(),
  },
  (t) => [index('project_user_otps_expires').on(t.expiresAt)],
);

export const projectUserResets = pgTable(
  'project_user_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => projectUsers.id, { onDelete: 'cascade' }),
    createdAt: created(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('project_user_resets_user').on(t.userId)],
);

/** A project's own text for one of its app users' mails (docs/mail.md); absent: the default of definitions/mail.ts. */
export const projectMailTemplates = pgTable(
  'project_mail_templates',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.kind] })],
);

/** A project's sender and, optionally, its own SMTP server (the password only encrypted with the server key). */
export const projectMailSettings = pgTable('project_mail_settings', {
  projectId: text('project_id').primaryKey().references(() => projects.id, { onDelete: 'cascade' }),
  senderName: text('sender_name'),
  senderAddress: text('sender_address'),
  replyTo: text('reply_to'),
  /** The SMTP URL without its password. */
  smtpUrl: text('smtp_url'),
  smtpPasswordEncrypted: text('smtp_password_encrypted'),
  verifyOnSignup: boolean('verify_on_signup').notNull().default(true),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Links that verify an app user's e-mail address (kept as hashes, once, until they expire). */
export const projectUserVerifications = pgTable(
  'project_user_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => projectUsers.id, { onDelete: 'cascade' }),
    createdAt: created(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('project_user_verifications_user').on(t.userId)],
);

/** A project's user group: `roles` grants create/read/update/delete per top-level collection slug, optionally on associated items only. */
export const userGroups = pgTable(
  'user_groups',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    roles: jsonb('roles').notNull().default([]),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_groups_project_name').on(t.projectId, sql`lower(${t.name})`)],
);

/**
 * Project users linked to an item (its Users panel, the public `bagelUsers`); gone with the
 * collection or the user. `itemId` is the top-level item; `nestedPath` the nestedID chain of a
 * nested item under it ('' for the item itself; migration 0022).
 */
export const itemUsers = pgTable(
  'item_users',
  {
    projectId: text('project_id').notNull(),
    collectionSlug: text('collection_slug').notNull(),
    itemId: text('item_id').notNull(),
    nestedPath: text('nested_path').notNull().default(''),
    userId: text('user_id').notNull().references(() => projectUsers.id, { onDelete: 'cascade' }),
    createdAt: created(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.collectionSlug, t.itemId, t.nestedPath, t.userId] }),
    index('item_users_user').on(t.projectId, t.collectionSlug, t.userId, t.itemId).where(sql`${t.nestedPath} = ''`),
  ],
);

/**
 * A project's webhooks (migration 0016, docs/webhooks.md). `secret` signs every attempt, so it is
 * kept (shown to people once, at creation). `consecutiveFailures` counts deliveries that used up
 * every attempt since the last success; past the configured number the webhook is disabled.
 * The relay that turns `item_events` rows into deliveries keeps its position in `webhook_relay`
 * (item_events gained an `xid8` column `xid`, read only in SQL).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    uri: text('uri').notNull(),
    method: text('method').notNull(),
    trigger: text('trigger').notNull(),
    collections: jsonb('collections').notNull().default([]),
    secret: text('secret').notNull(),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
    /**
     * pg_current_snapshot() of the statement that created or re-enabled the webhook (migration 0031):
     * the events that had committed by then are never sent to it (docs/webhooks.md, on and off).
     */
    enabledSnapshot: text('enabled_snapshot'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhooks_project').on(t.projectId)],
);

/** One event to send to one webhook: the exact body (re-sent byte for byte by retries and redelivery). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id').notNull().references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    trigger: text('trigger').notNull(),
    body: text('body').notNull(),
    /** pending (an attempt is due), delivered, failed (no attempt left). */
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event').on(t.webhookId, t.eventId),
    // First attempts whose lease ran out unlogged (migration 0020).
    index('webhook_deliveries_first_due').on(t.nextAttemptAt).where(sql`${t.state} = 'pending' and ${t.attempts} = 0`),
  ],
);

/** Every attempt of a delivery: the webhook log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: text('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull().references(() => webhooks.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    manual: boolean('manual').notNull().default(false),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: created(),
  },
  (t) => [index('webhook_attempts_webhook').on(t.webhookId, t.id), index('webhook_attempts_delivery').on(t.deliveryId)],
);

/** Every admin action (docs/admin.md "Audit log"): who, what, when, before and after. */
export const adminAudit = pgTable(
  'admin_audit',
  {
    id: text('id').primaryKey(),
    at: ts('at').notNull().defaultNow(),
    /** The acting user, or null for the command line. */
    actorId: text('actor_id'),
    /** The actor as people read it: the user's e-mail, or `cli (<os user>)`. */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('admin_audit_at').on(t.at, t.id), index('admin_audit_target').on(t.targetKind, t.targetId, t.at)],
);

/** While soft launch is on, billing applies only to these organizations (docs/admin.md "Soft launch"). */
export const softLaunchWhitelist = pgTable('soft_launch_whitelist', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  addedAt: ts('added_at').notNull().defaultNow(),
});

/** One platform figure per metric per UTC day, written by the daily metrics job. */
export const platformDaily = pgTable(
  'platform_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    metric: text('metric').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.metric] })],
);

/**
 * A project's integrations (migration 0032, docs/integrations.md): one row per instance of a
 * catalogue entry (definitions/integrations/). `settings` holds the settings that are not secrets;
 * the secret ones are one JSON object sealed with the secrets key (`secretsEncrypted`), never
 * answered. The relay that turns item events into runs keeps its place in `event_relays`
 * (name 'integrations'), read only in SQL.
 */
export const integrationInstances = pgTable(
  'integration_instances',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    integration: text('integration').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    collections: jsonb('collections').$type<string[]>().notNull().default([]),
    events: jsonb('events').$type<string[]>().notNull().default([]),
    schedule: text('schedule'),
    nextRunAt: ts('next_run_at'),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    secretsEncrypted: text('secrets_encrypted'),
    enabledSnapshot: text('enabled_snapshot'),
    lastRunAt: ts('last_run_at'),
    lastStatus: text('last_status'),
    lastError: text('last_error'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('integration_instances_project').on(t.projectId, t.createdAt)],
);

/** One run of an instance: an item event delivered, a scheduled export, a test or a rebuild. */
export const integrationRuns = pgTable(
  'integration_runs',
  {
    id: text('id').primaryKey(),
    instanceId: text('instance_id').notNull().references(() => integrationInstances.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    trigger: text('trigger').notNull(),
    eventId: bigint('event_id', { mode: 'number' }),
    /** pending (an attempt is due or under way), succeeded, failed (no attempt left). */
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    durationMs: integer('duration_ms'),
    createdAt: created(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('integration_runs_instance').on(t.instanceId, t.createdAt, t.id),
    index('integration_runs_first_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending' and ${t.attempts} = 0`),
  ],
);

/** A project's function (docs/functions.md "Functions and versions"; migration 0033). */
export const functions = pgTable(
  'functions',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    language: text('language').$type<'js' | 'ts'>().notNull(),
    public: boolean('public').notNull().default(false),
    apiTokenId: text('api_token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
    /** References function_versions (a constraint of the migration: the two tables name each other). */
    deployedVersionId: text('deployed_version_id'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /** Event and schedule triggers (migration 0034). */
    events: jsonb('events').$type<('create' | 'update' | 'delete')[]>().notNull().default([]),
    collections: jsonb('collections').$type<string[]>().notNull().default([]),
    schedule: text('schedule'),
    nextRunAt: ts('next_run_at'),
    triggersSnapshot: text('triggers_snapshot'),
  },
  (t) => [uniqueIndex('functions_project_name').on(t.projectId, t.name)],
);

/** An event's or a schedule's run of a function: retried until it succeeds or its attempts are spent (migration 0034). */
export const functionRuns = pgTable(
  'function_runs',
  {
    id: text('id').primaryKey(),
    functionId: text('function_id').notNull().references(() => functions.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** The item event (create, update, delete) or schedule. */
    trigger: text('trigger').$type<'create' | 'update' | 'delete' | 'schedule'>().notNull(),
    eventId: bigint('event_id', { mode: 'number' }),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    createdAt: created(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('function_runs_created').on(t.createdAt),
    index('function_runs_first_due').on(t.nextAttemptAt).where(sql`${t.status} = 'pending' and ${t.attempts} = 0`),
  ],
);

/** One saved source of a function with its compiled code. */
export const functionVersions = pgTable(
  'function_versions',
  {
    id: text('id').primaryKey(),
    functionId: text('function_id').notNull().references(() => functions.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    source: text('source').notNull(),
    code: text('code').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
  },
  (t) => [uniqueIndex('function_versions_number').on(t.functionId, t.number)],
);

/** One run of a function, kept FUNCTION_LOG_RETENTION_DAYS. */
export const functionInvocations = pgTable(
  'function_invocations',
  {
    id: text('id').primaryKey(),
    functionId: text('function_id').notNull().references(() => functions.id, { onDelete: 'cascade' }),
    versionId: text('version_id').references(() => functionVersions.id, { onDelete: 'set null' }),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    trigger: text('trigger').$type<'http' | 'test' | 'event' | 'schedule'>().notNull(),
    runId: text('run_id').references(() => functionRuns.id, { onDelete: 'set null' }),
    attempt: integer('attempt'),
    status: text('status').$type<'ok' | 'error'>().notNull(),
    durationMs: integer('duration_ms').notNull(),
    memoryBytes: bigint('memory_bytes', { mode: 'number' }).notNull(),
    error: jsonb('error').$type<{ name: string; message: string; stack?: string } | null>(),
    logs: jsonb('logs').$type<{ level: string; text: string }[]>().notNull().default([]),
    resultPreview: text('result_preview'),
    createdAt: created(),
  },
  (t) => [index('function_invocations_function').on(t.functionId, t.createdAt, t.id), index('function_invocations_created').on(t.createdAt)],
);

/** A project's function secrets (ctx.secrets.NAME), sealed with the secrets key. */
export const projectFunctionSecrets = pgTable(
  'project_function_secrets',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    valueEncrypted: text('value_encrypted').notNull(),
    createdAt: created(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name] })],
);
