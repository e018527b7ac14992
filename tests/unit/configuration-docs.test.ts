import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { configurationDocPath, configurationTable, tableIn } from '../../server/settings-docs.ts';
import { readSettings, settingsSchema } from '../../server/settings.ts';

describe('configuration from one schema', () => {
  it("docs/configuration.md holds the table generated from the settings schema (run `npm run docs:config` after changing it)", () => {
    expect(tableIn(readFileSync(configurationDocPath, 'utf8'))).toBe(configurationTable());
  });

  it('every setting has a description, a value type and what a refused value must be', () => {
    for (const [name, schema] of Object.entries(settingsSchema.properties)) {
      expect(schema.description, name).toMatch(/\S/);
      expect((schema as { valueType?: string }).valueType, name).toMatch(/\S/);
      expect((schema as { expect?: string }).expect, name).toMatch(/\S/);
    }
  });

  it("every default the schema declares is a value the schema accepts", () => {
    expect(() => readSettings({})).not.toThrow();
    const defaults = Object.fromEntries(Object.entries(settingsSchema.properties).map(([name, schema]) => [name, schema.default as string | undefined]));
    expect(readSettings(defaults)).toEqual(readSettings({}));
  });

  it('a refused value names the variable and what it must be', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow('PORT must be a non-negative integer, got "eighty"');
    expect(() => loadConfig({ WEBHOOK_SENDER: 'fork' })).toThrow('WEBHOOK_SENDER must be thread, process or inline, got "fork"');
    expect(() => loadConfig({ RATE_LIMIT_LOGIN_ADDRESS: '10 per minute' })).toThrow(/RATE_LIMIT_LOGIN_ADDRESS must be like 10\/15m/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1m,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_POLL_S: '0.1' })).toThrow(/WEBHOOK_POLL_S/);
    expect(() => loadConfig({ FILES_STORAGE: 's3' })).toThrow('FILES_STORAGE=s3 needs S3_BUCKET');
  });

  it('derives what depends on other settings', () => {
    const config = loadConfig({ PORT: '9000', DATA_DIR: '/srv/larder', WEBHOOK_SENDER_NICE: '40', WEBHOOK_DISABLE_AFTER: '0', LARDER_PGLITE_NAMED: '0' });
    expect(config.publicUrl).toBe('http://localhost:9000');
    expect(config.files).toEqual({ kind: 'local', dir: '/srv/larder/files' });
    expect(config.webhooks.senderNice).toBe(19);
    expect(config.webhooks.disableAfter).toBe(1);
    expect(config.pgliteNamedStatements).toBe(false);
    const s3 = loadConfig({ FILES_STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://minio:9000', S3_PREFIX: '/site' });
    expect(s3.files).toMatchObject({ kind: 's3', forcePathStyle: true, prefix: 'site/', region: 'us-east-1' });
    expect(loadConfig({ FILES_STORAGE: 's3', S3_BUCKET: 'b' }).files).toMatchObject({ forcePathStyle: false, prefix: '' });
    expect(loadConfig({ SUPER_ADMIN_USERNAMES: ' ada, ,grace ' }).superAdminUsernames).toEqual(['ada', 'grace']);
    expect(loadConfig({ PUBLIC_URL: 'https://larder.example.org//' }).publicUrl).toBe('https://larder.example.org');
  });
});
