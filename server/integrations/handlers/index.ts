/**
 * The server's handler of each catalogue entry, by id (definitions/integrations/). An entry
 * without one fails its runs with a clear reason.
 */
import { meilisearchHandler } from './meilisearch.ts';
import { s3ExportHandler } from './s3-export.ts';
import { slackHandler } from './slack.ts';
import type { IntegrationHandler } from './types.ts';

export const integrationHandlers: ReadonlyMap<string, IntegrationHandler> = new Map([
  ['slack', slackHandler],
  ['s3-export', s3ExportHandler],
  ['meilisearch', meilisearchHandler],
]);
