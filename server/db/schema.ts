/**
 * Platform tables. Ids are 24-character hex strings (the shape BagelDB clients expect for `_id`).
 * Secrets (refresh tokens, reset tokens, confirmation ids) are stored only as SHA-256 hashes.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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

/** The organization's billing record; the billing issue adds plan, address and amounts. */
export const billingAccounts = pgTable('billing_accounts', {
  organizationId: text('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  seats: integer('seats').notNull(),
  createdAt: created(),
});

export const projects = pgTable(
  'projects',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Project settings, e.g. `restrictedView`: collections only some users see (spec's special case as data). */
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
  },
  (t) => [index('api_tokens_project').on(t.projectId), uniqueIndex('api_tokens_hash').on(t.tokenHash)],
);

/**
 * A collection of a project (content spec §3). `slug` is the collection ID people see; `id` names
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
