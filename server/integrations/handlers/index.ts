/**
 * The server's handler of each catalogue entry, by id (definitions/integrations/). An entry
 * without one fails its runs with a clear reason.
 */
import { slackHandler } from './slack.ts';
import type { IntegrationHandler } from './types.ts';

export const integrationHandlers: ReadonlyMap<string, IntegrationHandler> = new Map([['slack', slackHandler]]);
