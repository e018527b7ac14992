/**
 * Typed calls of a project's Integrations (docs/integrations.md): its instances (list, read, make,
 * change, delete), their run log and "send a test". Shapes from definitions/schemas/integrations.ts.
 * All reject with ApiError.
 */
import type {
  IntegrationInstance,
  IntegrationInstanceInput,
  IntegrationInstanceUpdate,
  IntegrationRun,
  IntegrationRunPage,
} from '../../definitions/schemas/integrations.ts';
import { getApiClient, type ApiClient } from './client.ts';

export type { IntegrationInstance, IntegrationInstanceInput, IntegrationInstanceUpdate, IntegrationRun, IntegrationRunPage };

/** The project a call is made in. */
export interface IntegrationScope {
  organizationID: string;
  projectID: string;
}

export interface IntegrationsApi {
  list(scope: IntegrationScope): Promise<IntegrationInstance[]>;
  get(scope: IntegrationScope, id: string): Promise<IntegrationInstance>;
  create(scope: IntegrationScope, input: IntegrationInstanceInput): Promise<IntegrationInstance>;
  update(scope: IntegrationScope, id: string, input: IntegrationInstanceUpdate): Promise<IntegrationInstance>;
  remove(scope: IntegrationScope, id: string): Promise<void>;
  runs(scope: IntegrationScope, id: string, page: number): Promise<IntegrationRunPage>;
  /** Starts a test run (202); answers its id. */
  test(scope: IntegrationScope, id: string): Promise<{ runID: string }>;
}

const seg = encodeURIComponent;
const base = (scope: IntegrationScope) => `api/organization/${seg(scope.organizationID)}/project/${seg(scope.projectID)}/integrations`;

/** Every path of these calls (relative to the console's origin). */
export const integrationPaths = {
  list: base,
  instance: (scope: IntegrationScope, id: string) => `${base(scope)}/${seg(id)}`,
  runs: (scope: IntegrationScope, id: string) => `${base(scope)}/${seg(id)}/runs`,
  test: (scope: IntegrationScope, id: string) => `${base(scope)}/${seg(id)}/test`,
};

export function createIntegrationsApi(client: ApiClient): IntegrationsApi {
  const { json } = client;
  return {
    list: (scope) => json<IntegrationInstance[]>(integrationPaths.list(scope)),
    get: (scope, id) => json<IntegrationInstance>(integrationPaths.instance(scope, id)),
    create: (scope, input) => json<IntegrationInstance>(integrationPaths.list(scope), { method: 'post', json: input }),
    update: (scope, id, input) => json<IntegrationInstance>(integrationPaths.instance(scope, id), { method: 'put', json: input }),
    remove: async (scope, id) => {
      await json<unknown>(integrationPaths.instance(scope, id), { method: 'delete' });
    },
    runs: (scope, id, page) => json<IntegrationRunPage>(integrationPaths.runs(scope, id), { searchParams: { page } }),
    test: (scope, id) => json<{ runID: string }>(integrationPaths.test(scope, id), { method: 'post' }),
  };
}

let browserIntegrationsApi: IntegrationsApi | null = null;

/** These calls over the page's client. */
export function getIntegrationsApi(): IntegrationsApi {
  browserIntegrationsApi ??= createIntegrationsApi(getApiClient());
  return browserIntegrationsApi;
}
