/**
 * The integration catalogue: every connector a project can switch on, looked up by id. A new
 * integration is a new folder plus one line below, and its handler on the server
 * (server/integrations/; a test holds every entry to having one).
 */
import { meilisearch } from './meilisearch/index.ts';
import { s3Export } from './s3-export/index.ts';
import { slack } from './slack/index.ts';
import type { IntegrationDefinition } from './types.ts';

export type * from './types.ts';
export { itemEvents } from './types.ts';

export const integrations: readonly IntegrationDefinition[] = [slack, s3Export, meilisearch];

const byId = new Map(integrations.map((integration) => [integration.id, integration]));

export function integration(id: string): IntegrationDefinition | undefined {
  return byId.get(id);
}
