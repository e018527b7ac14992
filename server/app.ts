/**
 * Builds the Fastify application: every service is a plugin under its own prefix. `start.ts`
 * opens the database and listens; tests call `buildApp` with their own database and `inject`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Database } from './db/index.ts';
import { loadServerKeys, type ServerKeys } from './auth/keys.ts';
import { platform } from '../definitions/platform.ts';
import { AccessService, type AccessCaches } from './main/access.ts';
import { CacheRegistry } from './lib/shared-cache.ts';
import { createAuthCaches, type AuthCaches } from './public/principal-cache.ts';
import { cacheCollectionSchemas, type SchemaRow } from './content/collections.ts';
import { OrganizationService } from './main/organizations.ts';
import { ProjectService, type ProjectRow } from './main/projects.ts';
import { ApiTokenService } from './main/api-tokens.ts';
import { billingRoutes } from './billing/routes.ts';
import { billingTransactionRoutes } from './billing/transaction-routes.ts';
import { cardRoutes } from './billing/card-routes.ts';
import { billingStatusRoutes } from './billing/status-routes.ts';
import { createBilling, type BillingContext, type BillingOptions } from './billing/index.ts';
import { publicRoutes } from './public/routes.ts';
import { rewriteNestedPath } from './public/nested-paths.ts';
import { TokenService } from './auth/tokens.ts';
import { authRoutes } from './auth/routes.ts';
import { registerAuthentication } from './auth/authenticate.ts';
import { registerRequestScope } from './lib/request-scope.ts';
import { frameworkOptions, registerErrorHandling } from './lib/errors.ts';
import { ProblemSchema } from './lib/schemas.ts';
import { registerValidation } from './lib/validation.ts';
import { databaseRateLimitStore } from './lib/rate-limit-store.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { devMailboxRoutes } from './mail/dev-mailbox-routes.ts';
import { mainRoutes } from './main/routes.ts';
import { UserService } from './main/users.ts';
import { consoleRoutes } from './console.ts';
import { LiveHub } from './live/hub.ts';
import { registerFiles } from './files/routes.ts';
import { UrlGuard, type Resolver } from './lib/url-guard.ts';
import { loadSecretBox, type SecretBox } from './lib/secrets.ts';
import { linkPreview } from '../definitions/constants.ts';
import { EndUserTokenService } from './auth/end-user-tokens.ts';
import { EndUserService } from './auth/end-users.ts';
import { publicAuthRoutes } from './auth/public-routes.ts';
import { devMailboxSms, type SmsProvider } from './mail/sms.ts';
import { UserGroupService } from './main/user-groups.ts';
import { ItemUserService } from './main/item-users.ts';
import { projectUserAuthRoutes, projectUserRoutes } from './main/project-user-routes.ts';
import { UsageMeter } from './usage/usage.ts';
import { BackgroundWork } from './lib/background.ts';
import { registerWebhooks } from './webhooks/index.ts';
import { registerProjectMail } from './mail/index.ts';
import { registerIntegrations } from './integrations/index.ts';
import { registerFunctions } from './functions/index.ts';
import { WebhookService } from './webhooks/webhooks.ts';
import { registerUsageMetering, usageRoutes } from './usage/routes.ts';
import { CollectionService } from './content/collections.ts';
import { FieldIndexKeeper } from './content/field-indexes.ts';
import { ItemService } from './content/items.ts';
import { ItemQueryService } from './content/query/index.ts';
import { RankService } from './content/ranks.ts';
import { FileService } from './files/files.ts';
import { registerFileClaimer } from './files/claims.ts';
import { onContentDropped } from './content/drops.ts';
import { createStorage } from './files/storage.ts';
import { removeLeftovers } from './files/leftovers.ts';
import { spoolRootOf } from './files/spool.ts';
import { createAdmin, type AdminContext } from './admin/index.ts';
import { adminRoutes } from './admin/routes.ts';
import { adminBillingRoutes } from './admin/billing-routes.ts';
import { registerControlChannel } from './cli/control-routes.ts';
import { studioRoutes } from './studio/routes.ts';
import { metricsRoutes, registerMetrics } from './metrics/index.ts';
import { requestIdOf } from './metrics/request-id.ts';
import { Foreground } from './lib/foreground.ts';

export interface AppContext {
  config: Config;
  database: Database;
  tokens: TokenService;
  mailer: Mailer;
  users: UserService;
  keys: ServerKeys;
  access: AccessService;
  organizations: OrganizationService;
  projects: ProjectService;
  apiTokens: ApiTokenService;
  /** Live content events of this process's streams (server/live). */
  live: LiveHub;
  /** This process's caches of hot rows (server/lib/shared-cache.ts). */
  caches: CacheRegistry;
  /** The rows public API calls read to know their caller, cached per process (server/public/principal-cache.ts). */
  authCaches: AuthCaches;
  /** The one way to fetch an address a user gave (docs/security.md "Outbound requests"). */
  outbound: UrlGuard;
  /** Seals and opens the secrets projects store (Mail, Integrations, Functions): server/lib/secrets.ts. */
  secrets: SecretBox;
  /** Project users (end users of apps) and their tokens: `/auth/public` (docs/end-users.md). */
  endUsers: EndUserService;
  /** A project's user groups and what they grant per collection. */
  userGroups: UserGroupService;
  /** Project users linked to items (Users panel, `bagelUsers`, "associated items only"). */
  itemUsers: ItemUserService;
  /** Usage per organization and month: `add` counts in memory, flushed in batches (server/usage). */
  usage: UsageMeter;
  /** Work answered before it is done (reset mail), awaited at close (server/lib/background.ts). */
  background: BackgroundWork;
  /** A project's collections and their schemas (server/content/collections.ts). */
  collections: CollectionService;
  /** Item reads and writes (server/content/items.ts). */
  items: ItemService;
  /** Lists and searches of items (server/content/query). */
  itemQueries: ItemQueryService;
  fieldIndexes: FieldIndexKeeper;
  /** Manual order of items (server/content/ranks.ts). */
  ranks: RankService;
  /** The registry of stored files and its sweeper, over the configured storage (server/files). */
  files: FileService;
  /** A project's webhooks and their delivery log (server/webhooks). */
  webhooks: WebhookService;
  /** Plans, accounts, card payments, billing runs and enforcement (server/billing, docs/billing.md). */
  billing: BillingContext;
  /** The platform admin area: audit log, users, organizations, soft launch, metrics (server/admin, docs/admin.md). */
  admin: AdminContext;
  /** Requests from outside in flight, which item-event runs give way to (server/lib/foreground.ts). */
  foreground: Foreground;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** The same file service as `ctx.files`. */
    files: FileService;
  }
}

export type App = FastifyInstance;

export interface BuildOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Replaces the mailer (tests use the outbox or a capturing one). */
  mailer?: Mailer;
  /** Replaces DNS for outbound requests (tests make public-looking names lead anywhere without a network). */
  resolve?: Resolver;
  /** Replaces the SMS provider (default: kept for the Dev mailbox). */
  sms?: SmsProvider;
  /** Billing's clock and card provider (tests). */
  billing?: BillingOptions;
  /** false: no usage is metered. Only the no-metering baseline of `npm run bench -- usage-limits`. */
  metering?: boolean;
}

export async function buildApp(options: BuildOptions): Promise<App> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // Only the configured proxies' X-Forwarded-For is believed, else anyone could pick the address their limits count against.
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    // Nested levels as paths of their own become the client's nestedID form (server/public/nested-paths.ts).
    rewriteUrl: (request) => rewriteNestedPath(request.url ?? '/'),
    // A sane incoming x-request-id is kept, else a random one (server/metrics/request-id.ts).
    genReqId: requestIdOf,
    // The router's and the HTTP parser's own refusals are problem details too (docs/errors.md).
    ...frameworkOptions(),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const keys = await loadServerKeys(database.db);
  // Rows every request reads, cached per process; triggers (migration 0006) invalidate them everywhere at commit.
  const caches = new CacheRegistry(database);
  const sessionCache = caches.create<{ userId: string; live: boolean } | null>('session', 10_000);
  const accessCaches: AccessCaches = {
    user: caches.create('user', 10_000),
    membership: caches.create('membership', 10_000),
  };
  const projectCache = caches.create<ProjectRow>('project', 30_000);
  cacheCollectionSchemas(database.db, caches.create<SchemaRow>('collection', 30_000));
  const authCaches = createAuthCaches(caches);
  await caches.start();
  const tokens = new TokenService(database.db, config, keys, sessionCache);
  const mailer = options.mailer ?? createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  const users = new UserService(database.db, config, mailer, tokens);
  const live = new LiveHub(database, { retentionSeconds: config.liveEventRetentionS, log: app.log });
  await live.start();
  const usage = new UsageMeter(database.db, { log: app.log, shareLive: true, counting: options.metering !== false });
  usage.start();
  // Field indexes made with their field, or when a list first needs them (docs/content-storage.md "Indexes made when needed").
  const fieldIndexes = new FieldIndexKeeper(database, { ...config.fieldIndexes, log: app.log });
  const collections = new CollectionService(database.db, fieldIndexes.lazy);
  const storage = createStorage(config.files);
  // Upload files a killed process left half-written (docs/files.md "Temporary files after a crash").
  await removeLeftovers([spoolRootOf(config.dataDir), storage.tempRoot], app.log);
  const files = new FileService(database.db, storage, {
    pendingGraceS: config.filesPendingGraceS,
    sweepIntervalS: config.filesSweepIntervalS,
    log: app.log,
  });
  const superAdmins = new Set([...platform.superAdminUsernames, ...config.superAdminUsernames].map((u) => u.toLowerCase()));
  const outbound = new UrlGuard({
    allowPrivate: config.outboundAllowPrivate,
    timeoutMs: linkPreview.timeoutMs,
    maxRedirects: linkPreview.maxRedirects,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  app.decorate('ctx', {
    config,
    database,
    tokens,
    mailer,
    users,
    keys,
    access: new AccessService(database.db, superAdmins, accessCaches),
    organizations: new OrganizationService(database.db, config, mailer),
    projects: new ProjectService(database.db, projectCache, collections),
    apiTokens: new ApiTokenService(database.db, keys, authCaches.apiToken),
    live,
    caches,
    authCaches,
    usage,
    endUsers: new EndUserService(
      database.db,
      config,
      keys,
      new EndUserTokenService(database.db, config, keys, authCaches),
      mailer,
      options.sms ?? devMailboxSms(database.db, config.mailFrom),
      () => app.ctx.usage,
    ),
    userGroups: new UserGroupService(database.db, authCaches.userGroup),
    itemUsers: new ItemUserService(database.db),
    background: new BackgroundWork(app.log),
    outbound,
    secrets: await loadSecretBox(database.db, config.secretsKey),
    collections,
    items: new ItemService(database.db, collections),
    itemQueries: new ItemQueryService(database.db, database.read, caches, collections, config.listQueries, fieldIndexes),
    fieldIndexes,
    ranks: new RankService(database.db, collections),
    files,
    webhooks: new WebhookService(database.db, outbound),
    billing: undefined as unknown as BillingContext,
    admin: undefined as unknown as AdminContext,
    foreground: new Foreground(),
  });
  app.ctx.foreground.register(app);
  app.ctx.billing = createBilling(app, options.billing);
  app.ctx.admin = createAdmin(app);
  app.decorate('files', files);
  // Item writes naming files other items hold copy them (docs/files.md: who owns a file).
  registerFileClaimer(database.db, files, config.publicUrl);
  // Item writes (their content events, from any process) and this process's drops start the sweeps of what they orphaned.
  files.follow(live);
  onContentDropped(database.db, (drop) => files.dropped(drop));
  files.start();
  app.addHook('onClose', async () => {
    await files.close();
    (files.storage as { close?: () => void }).close?.();
  });
  // Answered work still running (reset mail) ends before the mailer and the database close.
  app.addHook('onClose', () => app.ctx.background.settled());
  app.addHook('onClose', () => mailer.close());
  app.addHook('onClose', () => caches.close());
  await fieldIndexes.start();
  app.addHook('onClose', () => fieldIndexes.close());
  app.addHook('onClose', () => app.ctx.outbound.close());
  // A write is answered once this process has heard the invalidations it caused (server/lib/shared-cache.ts).
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') await caches.settle();
    return payload;
  });
  // Before the server waits for its connections: live streams say stop (clients resume elsewhere) and end.
  app.addHook('preClose', () => live.close());
  registerUsageMetering(app);

  registerErrorHandling(app);
  // /metrics, readiness and the request id answered (docs/monitoring.md); its hooks before every route.
  registerMetrics(app);
  app.addSchema(ProblemSchema);
  registerValidation(app, [ProblemSchema]);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(database.db) });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Larder API', version: '0.1.0', description: 'Main API, auth service and the services beside them.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { deepLinking: false } });
  await app.register(metricsRoutes);
  registerAuthentication(app);
  registerRequestScope(app);
  // Billing status and usage limits on app calls and console calls (after the access check of each route).
  app.ctx.billing.enforcement.register(app);

  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(publicAuthRoutes, { prefix: '/auth/public' });
  await app.register(projectUserAuthRoutes, { prefix: '/auth/organization/:org/project/:proj' });
  await app.register(projectUserRoutes, { prefix: '/api/organization/:org/project/:proj' });
  await app.register(mainRoutes, { prefix: '/api' });
  await app.register(studioRoutes, { prefix: '/api/organization/:org/project/:proj/studio' });
  await app.register(billingRoutes, { prefix: '/billing' });
  await app.register(billingTransactionRoutes, { prefix: '/billing' });
  await app.register(cardRoutes, { prefix: '/billing' });
  await app.register(billingStatusRoutes, { prefix: '/billing' });
  await app.register(publicRoutes, { prefix: '/api/public' });
  if (config.devMailbox && mailer.transport === 'outbox') await app.register(devMailboxRoutes, { prefix: '/api/dev/mailbox' });
  await registerFiles(app);
  await registerWebhooks(app);
  await registerProjectMail(app);
  await registerIntegrations(app);
  await registerFunctions(app);
  await app.register(usageRoutes, { prefix: '/api' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  await app.register(adminBillingRoutes, { prefix: '/billing' });
  // The command line's operations, run here while this server holds the embedded database (docs/cli.md "While a server runs").
  await registerControlChannel(app);
  if (config.serveConsole) await app.register(consoleRoutes);
  await app.ctx.billing.runs.start();
  app.addHook('onClose', () => app.ctx.billing.runs.close());
  app.ctx.admin.metrics.start();
  app.addHook('onClose', () => app.ctx.admin.metrics.close());
  return app;
}
