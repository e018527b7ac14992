import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { passwordGrant } from './support/flows.ts';

describe.each(databaseKinds)('rate limits shared by every process on %s', (kind) => {
  let database: Database;
  let first: App;
  let second: App;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const config = loadConfig({ ...testEnv, RATE_LIMIT_LOGIN_ACCOUNT: '3/1m' });
    // Two app instances on one database stand for two processes of one deployment.
    first = await buildApp({ config, database, logger: false });
    second = await buildApp({ config, database, logger: false });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
    await database.close();
  });

  it('counts attempts made through either process against one limit', async () => {
    const statuses = [];
    for (const app of [first, second, first]) statuses.push((await passwordGrant(app, 'nobody-shared', 'wrong password')).statusCode);
    expect(statuses).toEqual([400, 400, 400]);
    const refused = await passwordGrant(second, 'nobody-shared', 'wrong password');
    expect(refused.statusCode).toBe(429);
    expect(json(refused).code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    expect((await passwordGrant(second, 'somebody-else', 'wrong password')).statusCode).toBe(400);
  });
});
