/**
 * `npm start`: builds the console if needed, opens the database (applying migrations), creates the
 * first super-admin when asked to, and serves everything on one port. SIGINT/SIGTERM close cleanly.
 */
import { loadConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { DataDirectoryLockedError } from './db/lock.ts';
import { buildApp } from './app.ts';
import { publishControlFile } from './cli/control-routes.ts';
import { ensureConsoleBuilt } from './build-console.ts';

const config = loadConfig();

if (config.serveConsole) await ensureConsoleBuilt();

let database;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, namedStatements: config.pgliteNamedStatements });
} catch (error) {
  if (error instanceof DataDirectoryLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = await buildApp({ config, database });
const admin = await app.ctx.users.bootstrapAdmin();
if (admin === 'created') app.log.info(`Created the platform super-admin ${config.adminEmail}.`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing (at most ${config.shutdownTimeoutMs / 1000} s)`);
  // New connections are refused at once; requests in flight finish, live streams are told to stop
  // (their clients reconnect elsewhere), job workers finish what they run; past the deadline the
  // process exits anyway and jobs cut short go back to the queue (docs/operations.md "Stopping").
  const force = setTimeout(() => {
    app.log.error(`${signal}: still closing after ${config.shutdownTimeoutMs / 1000} s (SHUTDOWN_TIMEOUT_S); exiting now`);
    process.exit(1);
  }, config.shutdownTimeoutMs);
  force.unref();
  try {
    await app.close();
    await database!.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
// Commands of the command line reach the embedded database through this server while it runs (docs/cli.md "While a server runs").
publishControlFile(app);
app.log.info(`Larder is serving on ${config.publicUrl} (database: ${database.kind}${database.kind === 'pglite' ? ` in ${config.dataDir}` : ''}).`);
