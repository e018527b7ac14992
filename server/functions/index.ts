/**
 * A project's functions (docs/functions.md): the sandbox pool (made when the server starts
 * listening, so no caller waits for its threads; closed with the app), the service, the console's routes under
 * `/api/organization/{org}/project/{proj}/functions`, the HTTP trigger under `/functions/v1`, the
 * item-event and schedule triggers (started with the app, stopped before the pool closes), and the
 * hourly sweep of the invocation log.
 */
import type { FastifyInstance } from 'fastify';
import { functionHost } from './data-client.ts';
import { functionHttpRoutes } from './http.ts';
import { functionRoutes } from './routes.ts';
import { SandboxPool } from './sandbox.ts';
import { FunctionService } from './service.ts';
import { FunctionTriggers } from './triggers.ts';

declare module '../app.ts' {
  interface AppContext {
    /** A project's functions (server/functions); set once registered. */
    functions?: FunctionService;
    /** Their item-event and schedule runs; set once registered. */
    functionTriggers?: FunctionTriggers;
  }
}

const SWEEP_EVERY_MS = 3_600_000;

export async function registerFunctions(app: FastifyInstance): Promise<void> {
  const { config, database } = app.ctx;
  const box = app.ctx.secrets;
  // Made when the server starts listening, and its threads warmed up then, so no caller waits for
  // them; an app that never listens (tests, the command line) makes it on its first run.
  let pool: SandboxPool | undefined;
  const sandbox = () => (pool ??= new SandboxPool({ log: app.log }));
  const service = new FunctionService(database.db, box, sandbox, config.functions, functionHost(app, config.functions.timeoutMs), {
    functions: app.ctx.caches.create('function', 30_000),
    secrets: app.ctx.caches.create('function-secrets', 30_000, 1_000),
  });
  app.ctx.functions = service;
  const triggers = new FunctionTriggers({
    database,
    service,
    config: config.functions,
    log: app.log,
    // Under a billing BLOCK the organization's functions do not run on its events (docs/billing.md).
    suspended: (organizationId) => app.ctx.billing.enforcement.suspended(organizationId),
    quiet: app.ctx.foreground.quiet,
  });
  await triggers.start();
  app.ctx.functionTriggers = triggers;

  let sweeping: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    sweeping = service.sweep().catch((error) => app.log.error({ err: error }, 'function log sweep failed'));
  };
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  sweep();
  app.addHook('onListen', async () => {
    void sandbox()
      .ready()
      .catch((error) => app.log.error({ err: error }, 'functions sandbox could not start'));
  });
  app.addHook('onClose', async () => {
    // Runs under way end before the sandbox closes.
    await triggers.stop();
    clearInterval(timer);
    await sweeping;
    await pool?.close();
  });

  await app.register(functionRoutes, { prefix: '/api/organization/:org/project/:proj/functions', service });
  await app.register(functionHttpRoutes, { prefix: '/functions/v1', service });
}
