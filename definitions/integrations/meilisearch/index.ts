/**
 * Search-engine sync: one collection kept in step with a Meilisearch index (through its official
 * client) on every create, change and delete, and rebuilt whole on demand ("send a test").
 */
import type { IntegrationDefinition } from '../types.ts';

export const meilisearch: IntegrationDefinition = {
  id: 'meilisearch',
  name: 'integrations.meilisearch.name',
  description: 'integrations.meilisearch.description',
  icon: 'Search',
  settings: {
    id: 'integrationMeilisearch',
    title: 'integrations.settings.title',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['host', 'indexUid'],
      properties: {
        host: { type: 'string', minLength: 1, maxLength: 2048, pattern: '^https?://[^\\s]+$' },
        apiKey: { type: 'string', minLength: 1, maxLength: 512 },
        indexUid: { type: 'string', minLength: 1, maxLength: 400, pattern: '^[A-Za-z0-9_-]+$' },
      },
    },
    fields: [
      { name: 'host', widget: 'text', inputType: 'url', label: 'integrations.meilisearch.host', help: 'integrations.meilisearch.hostHelp', trim: true },
      { name: 'apiKey', widget: 'text', inputType: 'password', label: 'integrations.meilisearch.apiKey', help: 'integrations.meilisearch.apiKeyHelp', autoComplete: 'off' },
      { name: 'indexUid', widget: 'text', label: 'integrations.meilisearch.indexUid', help: 'integrations.meilisearch.indexUidHelp', trim: true },
    ],
    errorMessages: {
      host: { pattern: 'integrations.error.url', maxLength: 'integrations.error.url' },
      indexUid: { pattern: 'integrations.meilisearch.indexUidInvalid' },
    },
    submit: 'integrations.settings.save',
    submitting: 'integrations.settings.saving',
  },
  secrets: ['apiKey'],
  requiredSecrets: [],
  addresses: ['host'],
  events: ['create', 'update', 'delete'],
  collections: 'one',
  testHelp: 'integrations.meilisearch.testHelp',
};
